// The services as an integrator meets them, outside the workspace. The typed client: `pnpm build`'s
// tarball installed with npm into an empty folder, the README example type-checked there against
// the installed declarations (not the workspace's sources) and run with node against the services.
// The PHP and Python receivers of docs/webhooks.md, subscribed to the services, given their deliveries.
import { execFile, execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unwrap } from '@platform/client';
import { freePort, until } from '@platform/testkit';
import { jpeg } from '@platform/uploads/testing';
import { generateSigningSecret } from '@platform/webhooks';
import { packClient, tarballName } from '../packages/client/scripts/pack.mjs';
import { cleanEnv, npmInstall, packInstalled, readmeExample } from './integrator/installed-folder.js';
import {
  RECEIVER_LANGUAGES,
  receiverInterpreter,
  startSnippetReceiver,
} from '../packages/webhooks/test/snippet-receivers.js';
import { contractRun } from './harness.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const TSC = join(ROOT, 'node_modules/typescript/bin/tsc');

/** Mistakes the installed types must refuse: were they `any`, tsc reports each directive as unused. */
const MISUSE = `import { createPropertyClient } from '@platform/client';
const client = createPropertyClient({ baseUrl: 'https://api.example.com', apiKey: 'pm_test_x' });
// @ts-expect-error: no such path in the property API
void client.GET('/v1/no-such-path');
// @ts-expect-error: a property has no field "nope"
void client.POST('/v1/properties', { body: { nope: 1 } });
`;

/** What an integrator's project would use: strict, Node's ESM resolution, no DOM, library types checked too. */
const TSCONFIG = {
  compilerOptions: {
    target: 'ES2022',
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
    strict: true,
    types: ['node'],
    skipLibCheck: false,
    outDir: 'out',
  },
  files: ['quickstart.ts', 'misuse.ts'],
};

const run = contractRun([]);
let folder = '';
let tarball = '';
let typeCheck: { ok: boolean; output: string } = { ok: false, output: '' };

beforeAll(() => {
  folder = mkdtempSync(join(tmpdir(), 'integrator-'));
  const packages = join(folder, 'packages');
  mkdirSync(packages);
  tarball = packClient({ destination: packages, quiet: true });
  const dependencies = packInstalled(['openapi-fetch', '@types/node'], join(ROOT, 'packages/client'), packages);
  npmInstall(folder, [tarball, ...dependencies]);
  writeFileSync(join(folder, 'quickstart.ts'), readmeExample(readFileSync(join(ROOT, 'README.md'), 'utf8')));
  writeFileSync(join(folder, 'misuse.ts'), MISUSE);
  writeFileSync(join(folder, 'tsconfig.json'), JSON.stringify(TSCONFIG));
  try {
    const output = execFileSync(process.execPath, [TSC, '-p', '.', '--listFiles'], { cwd: folder, encoding: 'utf8' });
    typeCheck = { ok: true, output };
  } catch (error) {
    typeCheck = { ok: false, output: String((error as { stdout?: string }).stdout ?? error) };
  }
}, 300_000);
afterAll(() => rmSync(folder, { recursive: true, force: true }));

describe('the client package, installed from its tarball outside the workspace', () => {
  it('holds the compiled client and declarations, no sources and no workspace versions', () => {
    const files = execFileSync('tar', ['-tzf', tarball], { encoding: 'utf8' }).trim().split('\n');
    expect(files).toEqual(expect.arrayContaining(['package/dist/index.js', 'package/dist/index.d.ts']));
    expect(files.filter((file) => /\.ts$/.test(file) && !/\.d\.ts$/.test(file))).toEqual([]);
    const manifest = JSON.parse(execFileSync('tar', ['-xzOf', tarball, 'package/package.json'], { encoding: 'utf8' }));
    expect(manifest.exports).toEqual({ '.': { types: './dist/index.d.ts', import: './dist/index.js' } });
    expect(JSON.stringify(manifest)).not.toContain('workspace:');
  });

  it("is the file the READMEs tell to install, by the package's current version", () => {
    for (const readme of ['README.md', 'packages/client/README.md'])
      expect(readFileSync(join(ROOT, readme), 'utf8'), readme).toContain(`dist/${tarballName()}`);
  });

  it('type-checks the README example against the installed declarations, which refuse a wrong path or field', () => {
    expect(typeCheck.ok, typeCheck.output).toBe(true);
    const checked = typeCheck.output.trim().split('\n');
    expect(checked).toContain(join(folder, 'node_modules/@platform/client/dist/index.d.ts'));
    const fromWorkspace = checked.filter((file) => file.startsWith(ROOT) && !file.includes('/typescript/lib/'));
    expect(fromWorkspace, 'only the compiler itself may come from the workspace').toEqual([]);
  });

  it('runs the README example with node against the services: property, photo, list, verified delivery', async () => {
    expect(typeCheck.ok, typeCheck.output).toBe(true);
    copyFileSync(join(ROOT, 'contract/integrator/run-example.mjs'), join(folder, 'run-example.mjs'));
    writeFileSync(join(folder, 'photo.jpg'), jpeg(1600, 1200));
    const env = cleanEnv({ BASE_URL: run.urls.property, API_KEY: run.property.key, PHOTO: 'photo.jpg' });
    const { stdout } = await new Promise<{ stdout: string }>((resolve, reject) =>
      execFile(process.execPath, ['run-example.mjs'], { cwd: folder, env, timeout: 60_000 }, (error, out, err) =>
        error ? reject(new Error(`${error.message}\n${err}`)) : resolve({ stdout: out }),
      ),
    );
    const result = JSON.parse(stdout.trim().split('\n').at(-1)!);
    expect(result.clientResolvedTo).toBe(
      pathToFileURL(join(folder, 'node_modules/@platform/client/dist/index.js')).href,
    );
    expect(result.property.status).toBe('draft');
    expect(result.photo).toMatchObject({ kind: 'photo', content_type: 'image/jpeg', width: 1600 });
    expect(result.listed).toBe(1);
    expect(result.events).toContainEqual(
      expect.objectContaining({
        type: 'property.updated',
        data: { property_id: result.property.id, changed_fields: ['rooms'] },
      }),
    );
  }, 90_000);
});

describe('the PHP and Python receivers of docs/webhooks.md, subscribed to the services', () => {
  /** The status the receiver answered to the delivery of the endpoint's test event, once attempted. */
  async function answerTo(webhookId: string): Promise<number | null> {
    const client = run.clients.property;
    const path = { webhookId };
    const sent = await unwrap(client.POST('/v1/webhooks/{webhookId}/test', { params: { path } }));
    return until(async () => {
      const page = await unwrap(client.GET('/v1/webhooks/{webhookId}/deliveries', { params: { path } }));
      const delivery = page.data.find((d) => d.id === sent.delivery_id);
      return delivery?.attempts[0] ? { status: delivery.attempts[0].status_code } : undefined;
    }, 20_000).then(({ status }) => status);
  }

  for (const language of RECEIVER_LANGUAGES) {
    const { available, note } = receiverInterpreter(language);
    it.skipIf(!available)(
      `${language}: accepts the services' own delivery, refuses it while holding another secret${note}`,
      async () => {
        const port = await freePort();
        const webhook = await unwrap(
          run.clients.property.POST('/v1/webhooks', {
            body: { url: `http://127.0.0.1:${port}/hooks`, events: ['property.updated'] },
          }),
        );
        for (const [secrets, expected] of [
          [[generateSigningSecret()], 400],
          [[webhook.signing_secret], 202],
        ] as const) {
          const receiver = await startSnippetReceiver(language, port, secrets);
          try {
            expect(await answerTo(webhook.id)).toBe(expected);
          } finally {
            await receiver.stop();
          }
        }
      },
      60_000,
    );
  }
});
