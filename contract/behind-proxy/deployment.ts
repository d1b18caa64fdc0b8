// Two instances of each service and two workers behind nginx over HTTPS (a test CA), on S3.
import { Agent, setGlobalDispatcher } from 'undici';
import { startScaledDeployment, type ScaledDeployment, type TestDatabase } from '@platform/testkit';
import type { Deployment } from '../harness.js';

/**
 * A `deploy` for contractRun; `started` gets the deployment (its proxy and instances) for the
 * tests that look behind the proxy. The suite's requests (globalThis.fetch) trust the test CA,
 * and nothing else is relaxed.
 */
export function behindProxy(
  extraEnv: Record<string, string> = {},
  started: (deployment: ScaledDeployment) => void = () => {},
): (db: TestDatabase, env: Record<string, string>) => Promise<Deployment> {
  return async (db, env) => {
    const deployment = await startScaledDeployment({ databaseUrl: db.url, env: { ...env, ...extraEnv } });
    setGlobalDispatcher(new Agent({ connect: { ca: deployment.ca } }));
    started(deployment);
    return deployment;
  };
}
