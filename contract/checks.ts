// The checks every document's suite ends with: the generic errors and reads of every operation,
// coverage by operationId, no response off contract, and the webhook deliveries it caused.
import { describe, expect, it } from 'vitest';
import {
  checkWebhookPayloads,
  exerciseGenericErrors,
  exerciseReads,
  unexpected,
  type DocumentName,
  type EventType,
} from '@platform/contract';
import { until } from '@platform/testkit';
import type { ContractRun } from './harness.js';

type ServiceName = 'property' | 'agents';

const keyOf = (run: ContractRun, service: ServiceName) => (service === 'property' ? run.property.key : run.agents.key);

/** Subscribes the run's receiver (path `/<service>`) to every event type of the service; returns the types. */
export async function subscribeToEverything(run: ContractRun, service: ServiceName): Promise<EventType[]> {
  const headers = { apikey: keyOf(run, service), 'content-type': 'application/json' };
  const listed = (await (await run.recorder.fetch(`${run.urls[service]}/v1/event-types`, { headers })).json()) as {
    data: EventType[];
  };
  const types = listed.data.map((t) => t.type);
  for (let i = 0; i < types.length; i += 10) {
    const response = await run.recorder.fetch(`${run.urls[service]}/v1/webhooks`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ url: `${run.receiver.url}/${service}`, events: types.slice(i, i + 10) }),
    });
    expect(response.status).toBe(201);
  }
  return listed.data;
}

export function describeContractChecks(
  run: ContractRun,
  document: DocumentName,
  options: { service: ServiceName; eventTypes?: () => EventType[]; expectedEvents?: readonly string[] },
): void {
  describe(`${document}: what every operation must answer`, () => {
    it('answers reads of every GET with ids from its collections, as documented', async () => {
      const operations = run.recorder.index.all.filter((o) => o.document === document);
      const reads = await exerciseReads(operations, {
        baseUrl: run.urls[options.service],
        apiKey: keyOf(run, options.service),
        fetch: run.recorder.fetch,
      });
      expect(reads.filter((r) => r.status !== undefined && r.status >= 300 && r.status !== 304)).toEqual([]);
    });

    it('answers without a key, with a wrong key, for unknown ids and for a wrong body as documented', async () => {
      const operations = run.recorder.index.all.filter((o) => o.document === document);
      const results = await exerciseGenericErrors(operations, {
        baseUrl: run.urls[options.service],
        apiKey: keyOf(run, options.service),
        fetch: run.recorder.fetch,
      });
      expect(results.length).toBeGreaterThan(0);
      expect(unexpected(results)).toEqual([]);
    });
  });

  describe(`${document}: the contract`, () => {
    if (options.eventTypes) {
      it('delivers webhooks whose data matches the schema of their event type', async () => {
        const path = `/${options.service}`;
        const expected = options.expectedEvents ?? [];
        // Deliveries come from the relay and the worker: wait until every expected type is in.
        await until(async () => {
          const types = new Set(
            run.receiver.received
              .filter((r) => r.path === path)
              .map((r) => (JSON.parse(r.raw.toString()) as { type: string }).type),
          );
          return expected.every((t) => types.has(t));
        }, 30_000).catch(() => undefined);
        const bodies = run.receiver.received.filter((r) => r.path === path).map((r) => r.raw);
        const { checked, problems } = checkWebhookPayloads(run.recorder.validator, options.eventTypes!(), bodies);
        expect(problems).toEqual([]);
        expect(Object.keys(checked).sort()).toEqual(expect.arrayContaining([...expected].sort()));
      }, 60_000);
    }

    it('exercised every operation of the document successfully at least once', () => {
      expect(
        run.recorder.unexercised(document).map((o) => `${o.operationId} (${o.method.toUpperCase()} ${o.path})`),
      ).toEqual([]);
    });

    it('sent no response that breaks the document', () => {
      expect(run.recorder.violations()).toEqual([]);
    });
  });
}
