import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Value } from '@sinclair/typebox/value';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_PUBLIC_BASE_URL, until, whileHeld } from '@platform/testkit';
import { GENERATE_CATALOG_ENTRY_JOB, SWEEP_CATALOG_ENTRIES_JOB } from '../src/catalog-entries/index.js';
import { AGENT_PLATFORM_EVENTS } from '../src/events.js';
import { artifactParts, uploadArtifact } from './artifact-helpers.js';
import { startAgentPlatformApp, validAgent, type AgentPlatformTestContext } from './helpers.js';

let ctx: AgentPlatformTestContext;
let stopWorker: () => Promise<void>;
const work = mkdtempSync(join(tmpdir(), 'catalog-entries-test-'));
beforeAll(async () => {
  ctx = await startAgentPlatformApp();
  stopWorker = await ctx.startJobWorker();
});
afterAll(async () => {
  await stopWorker();
  await ctx.close();
  rmSync(work, { recursive: true, force: true });
});

type Entry = {
  id: string;
  agent_id: string;
  version: number;
  status: string;
  record: { sha256: string; size: number } | null;
  [key: string]: unknown;
};

const sha = (data: Buffer) => createHash('sha256').update(data).digest('hex');
/** Moves the app's clock on, so that entries generated one after another are ordered. */
const tick = () => (ctx.clock.now = new Date(ctx.clock.now.getTime() + 1000));

let files = 0;
function pdfText(pdf: Buffer): string {
  const file = join(work, `${++files}.pdf`);
  writeFileSync(file, pdf);
  return execFileSync('pdftotext', [file, '-'], { encoding: 'utf8' }).replace(/\s+/g, ' ');
}

/** An agent that passes the catalog rule (description, capabilities, a model card); resolves to its id. */
async function catalogReadyAgent(overrides: Record<string, unknown> = {}, key = ctx.tenant.key): Promise<string> {
  const res = await ctx.send(
    'POST',
    '/v1/agents',
    { ...validAgent(), description: 'Sorts incoming invoices.', ...overrides },
    key,
  );
  expect(res.statusCode).toBe(201);
  const id = res.json().id as string;
  expect(
    (
      await uploadArtifact(
        ctx,
        id,
        artifactParts(Buffer.from(`# Model card of ${id}\n`), 'text/markdown', 'card.md'),
        key,
      )
    ).statusCode,
  ).toBe(201);
  return id;
}

async function generated(agentId: string, key = ctx.tenant.key): Promise<Entry> {
  tick();
  const res = await ctx.send('POST', `/v1/agents/${agentId}/catalog-entries`, undefined, key);
  expect(res.statusCode).toBe(202);
  const entry = res.json() as Entry;
  expect(entry).toMatchObject({ agent_id: agentId, status: 'generating', record: null });
  return until(async () => {
    const now = (await ctx.send('GET', `/v1/catalog-entries/${entry.id}`, undefined, key)).json() as Entry;
    return now.status === 'completed' ? now : undefined;
  }, 20_000);
}

const publish = (id: string, key = ctx.tenant.key) =>
  ctx.send('POST', `/v1/catalog-entries/${id}/publish`, undefined, key);
const withdraw = (id: string) => ctx.send('POST', `/v1/catalog-entries/${id}/withdraw`);
const entry = async (id: string) => (await ctx.send('GET', `/v1/catalog-entries/${id}`)).json() as Entry;
const catalog = async (query = '', key = ctx.tenant.key) => {
  const res = await ctx.send('GET', `/v1/catalog${query}`, undefined, key);
  expect(res.statusCode).toBe(200);
  return res.json() as { data: Entry[]; page: { next_cursor: string | null; has_more: boolean } };
};
const catalogIds = async (query = '') => (await catalog(query)).data.map((e) => e.id);

async function eventsOf(type: string, id: string) {
  const events = await ctx.db.prisma.outboxEvent.findMany({ where: { type } });
  return events.map((e) => JSON.parse(e.payload)).filter((e) => e.data.catalog_entry_id === id);
}
const schemaOf = (type: string) => AGENT_PLATFORM_EVENTS.find((e) => e.type === type)!.data;

describe('catalog entries: generation', () => {
  it("renders the record in the worker: completed, a PDF with every artifact's SHA-256, catalog_entry.completed with exactly the spec data", async () => {
    const agentId = await catalogReadyAgent({ name: 'Ledger reconciler' });
    const second = Buffer.from('{"evaluation": "passed"}');
    tick(); // artifacts are copied oldest first
    expect(
      (
        await uploadArtifact(
          ctx,
          agentId,
          artifactParts(second, 'application/json', 'eval.json', [{ name: 'kind', value: 'evaluation_report' }]),
        )
      ).statusCode,
    ).toBe(201);
    const completed = await generated(agentId);
    expect(completed).toMatchObject({
      version: 1,
      record_url: `${TEST_PUBLIC_BASE_URL}/v1/catalog-entries/${completed.id}/record`,
      failure_reason: null,
      published_at: null,
      agent: {
        id: agentId,
        name: 'Ledger reconciler',
        description: 'Sorts incoming invoices.',
        capabilities: ['ocr', 'classify:invoice'],
        data_classification: 'internal',
      },
    });
    expect(Object.keys(completed.agent as object).sort()).toEqual([
      'capabilities',
      'chargeback_rate',
      'data_classification',
      'description',
      'id',
      'name',
      'owning_team',
    ]);
    const artifacts = completed.artifacts as { kind: string; sha256: string }[];
    expect(artifacts.map((a) => a.kind)).toEqual(['model_card', 'evaluation_report']); // oldest first
    expect(artifacts[1].sha256).toBe(sha(second));

    const record = await ctx.send('GET', `/v1/catalog-entries/${completed.id}/record`);
    expect(record.statusCode).toBe(200);
    expect(record.headers['content-type']).toBe('application/pdf');
    expect(record.headers.etag).toBe(`"${completed.record!.sha256}"`);
    expect(sha(record.rawPayload)).toBe(completed.record!.sha256);
    const cached = await ctx.app.inject({
      method: 'GET',
      url: `/v1/catalog-entries/${completed.id}/record`,
      headers: { apikey: ctx.tenant.key, 'if-none-match': record.headers.etag as string },
    });
    expect(cached.statusCode).toBe(304);
    const text = pdfText(record.rawPayload);
    expect(text).toContain('Ledger reconciler');
    for (const artifact of artifacts) expect(text).toContain(artifact.sha256);

    const events = await eventsOf('catalog_entry.completed', completed.id);
    expect(events).toHaveLength(1);
    expect(events[0].data).toEqual({
      catalog_entry_id: completed.id,
      agent_id: agentId,
      status: 'completed',
      record_url: completed.record_url,
    });
    expect(Value.Check(schemaOf('catalog_entry.completed'), events[0].data)).toBe(true);
  });

  it('keeps the entry and its record bytes when the agent and its artifacts change afterwards; a new entry shows them', async () => {
    const agentId = await catalogReadyAgent();
    const first = await generated(agentId);
    const before = (await ctx.send('GET', `/v1/catalog-entries/${first.id}/record`)).rawPayload;
    expect(
      (
        await ctx.send('PATCH', `/v1/agents/${agentId}`, {
          name: 'Renamed agent',
          capabilities: ['ocr', 'erp:post'],
          data_classification: 'confidential',
        })
      ).statusCode,
    ).toBe(200);
    const added = Buffer.from('You are a careful invoice clerk.');
    expect(
      (
        await uploadArtifact(
          ctx,
          agentId,
          artifactParts(added, 'text/plain', 'prompt.txt', [{ name: 'kind', value: 'prompt' }]),
        )
      ).statusCode,
    ).toBe(201);

    const again = await entry(first.id);
    expect(again).toEqual(first);
    expect(sha((await ctx.send('GET', `/v1/catalog-entries/${first.id}/record`)).rawPayload)).toBe(sha(before));

    const second = await generated(agentId);
    expect(second.version).toBe(2);
    expect(second.agent).toMatchObject({
      name: 'Renamed agent',
      capabilities: ['ocr', 'erp:post'],
      data_classification: 'confidential',
    });
    expect((second.artifacts as unknown[]).length).toBe(2);
    expect(second.record!.sha256).not.toBe(first.record!.sha256);
    expect(pdfText((await ctx.send('GET', `/v1/catalog-entries/${second.id}/record`)).rawPayload)).toContain(
      sha(added),
    );
  });

  it('refuses a retired agent (409) and an unknown one (404)', async () => {
    const agentId = await catalogReadyAgent();
    expect((await ctx.send('POST', `/v1/agents/${agentId}/retire`)).statusCode).toBe(200);
    const res = await ctx.send('POST', `/v1/agents/${agentId}/catalog-entries`);
    expect(res.statusCode).toBe(409);
    expect(res.json().code).toBe('conflict');
    expect(await ctx.db.prisma.catalogEntry.count({ where: { agent_id: agentId } })).toBe(0);
    expect((await ctx.send('POST', '/v1/agents/agt_missing/catalog-entries')).statusCode).toBe(404);
  });

  it('lists the entries newest first, by agent and status, with cursors bound to the filters', async () => {
    const agentId = await catalogReadyAgent();
    const a = await generated(agentId);
    const b = await generated(agentId);
    const page1 = (await ctx.send('GET', `/v1/catalog-entries?agent_id=${agentId}&limit=1`)).json();
    expect(page1.data.map((e: Entry) => e.id)).toEqual([b.id]);
    expect(page1.page.has_more).toBe(true);
    const page2 = (
      await ctx.send('GET', `/v1/catalog-entries?agent_id=${agentId}&limit=1&cursor=${page1.page.next_cursor}`)
    ).json();
    expect(page2.data.map((e: Entry) => e.id)).toEqual([a.id]);
    const otherFilter = await ctx.send(
      'GET',
      `/v1/catalog-entries?agent_id=${agentId}&status=completed&limit=1&cursor=${page1.page.next_cursor}`,
    );
    expect(otherFilter.statusCode).toBe(422);
    const failed = (await ctx.send('GET', `/v1/catalog-entries?agent_id=${agentId}&status=failed`)).json();
    expect(failed.data).toEqual([]);
    expect((await ctx.send('GET', '/v1/catalog-entries?status=finished')).statusCode).toBe(422);
    // Another account's agent id finds nothing (not even that the agent exists).
    expect(
      (await ctx.send('GET', `/v1/catalog-entries?agent_id=${agentId}`, undefined, ctx.other.key)).json().data,
    ).toEqual([]);
  });

  it('gives two generations at once consecutive versions: the version is taken under a lock per agent', async () => {
    const agentId = await catalogReadyAgent();
    // A generation that has taken version 1 and not committed yet; the two requests must wait for it, then take 2 and 3.
    const { result, waited } = await whileHeld(
      ctx.db,
      async (tx) => {
        await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${`catalog_entries.version:${agentId}`}, 0))`;
        await tx.catalogEntry.create({
          data: {
            id: `cat_held_${agentId}`,
            account_id: ctx.tenant.accountId,
            agent_id: agentId,
            version: 1,
            status: 'failed',
            failure_reason: 'held',
            snapshot: {},
            capabilities: [],
            data_classification: 'internal',
            record_url: 'x',
          },
        });
      },
      () => Promise.all([1, 2].map(() => ctx.send('POST', `/v1/agents/${agentId}/catalog-entries`))),
      2,
    );
    expect(waited).toBe(2);
    expect(result.map((r) => r.statusCode)).toEqual([202, 202]);
    expect(result.map((r) => r.json().version).sort()).toEqual([2, 3]);
  });
});

describe('catalog entries: failure and the sweeper', () => {
  it('enqueues a lost generation again, and fails one that was swept too often; a failed entry has no record and cannot be published', async () => {
    const agentId = await catalogReadyAgent();
    const done = await generated(agentId);
    const { snapshot } = await ctx.db.prisma.catalogEntry.findUniqueOrThrow({ where: { id: done.id } });
    const stuckSince = new Date(ctx.clock.now.getTime() - 11 * 60_000);
    const row = (id: string, version: number, sweeps: number) => ({
      id,
      account_id: ctx.tenant.accountId,
      agent_id: agentId,
      version,
      snapshot: snapshot as object,
      capabilities: ['ocr'],
      data_classification: 'internal' as const,
      record_url: `${TEST_PUBLIC_BASE_URL}/v1/catalog-entries/${id}/record`,
      sweeps,
      created_at: stuckSince,
      updated_at: stuckSince,
    });
    // Their jobs were lost (the queue was down when they were requested).
    const lost = `cat_lost_${agentId}`;
    const hopeless = `cat_hopeless_${agentId}`;
    await ctx.db.prisma.catalogEntry.createMany({ data: [row(lost, 2, 0), row(hopeless, 3, 3)] });
    expect((await ctx.send('GET', `/v1/catalog-entries/${lost}/record`)).statusCode).toBe(404);
    expect((await publish(lost)).statusCode).toBe(409);

    const swept = await SWEEP_CATALOG_ENTRIES_JOB.run(
      { db: ctx.db.prisma, now: ctx.clock.now, storage: ctx.storage, sandbox: ctx.sandbox, jobs: ctx.jobs },
      {},
    );
    // The one taken again has a new job, which the queue knows: nothing else to resume.
    expect(swept).toEqual({ resumed: 0, retried: 1, failed: 1 });

    const failed = await entry(hopeless);
    expect(failed).toMatchObject({
      status: 'failed',
      record: null,
      failure_reason: 'Generation did not finish after 4 tries.',
    });
    const record = await ctx.send('GET', `/v1/catalog-entries/${hopeless}/record`);
    expect(record.statusCode).toBe(404);
    expect(record.json().code).toBe('not_found');
    const refused = await publish(hopeless);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().code).toBe('invalid_transition');

    const recovered = await until(
      async () => ((await entry(lost)).status === 'completed' ? entry(lost) : undefined),
      20_000,
    );
    expect(recovered.record!.sha256).toBe(done.record!.sha256); // same snapshot, same bytes
    expect(await eventsOf('catalog_entry.completed', lost)).toHaveLength(1);

    // A rerun of a finished generation (queue retry, a second sweep) does nothing.
    const jobContext = {
      db: ctx.db.prisma,
      now: ctx.clock.now,
      storage: ctx.storage,
      sandbox: ctx.sandbox,
      jobs: ctx.jobs,
    };
    expect(await GENERATE_CATALOG_ENTRY_JOB.run(jobContext, { catalog_entry_id: lost })).toEqual({
      catalog_entry_id: lost,
      outcome: 'skipped',
    });
    expect(await entry(lost)).toEqual(recovered);
    expect(await eventsOf('catalog_entry.completed', lost)).toHaveLength(1);
  });
});

describe('catalog entries: publication and the catalog', () => {
  it('refuses to publish what breaks the rule, with one 422 detail per missing thing, and leaves the entry completed', async () => {
    const res = await ctx.send('POST', '/v1/agents', { ...validAgent(), capabilities: [] });
    const agentId = res.json().id as string;
    expect(
      (
        await uploadArtifact(
          ctx,
          agentId,
          artifactParts(Buffer.from('prompt'), 'text/plain', 'p.txt', [{ name: 'kind', value: 'prompt' }]),
        )
      ).statusCode,
    ).toBe(201);
    const completed = await generated(agentId);
    const refused = await publish(completed.id);
    expect(refused.statusCode).toBe(422);
    expect(refused.json()).toEqual({
      code: 'validation_failed',
      message: expect.stringContaining('catalog-entry/1'),
      details: [
        { field: 'agent.description', reason: 'missing' },
        { field: 'agent.capabilities', reason: 'missing' },
        { field: 'artifacts', reason: 'missing' },
      ],
    });
    expect((await entry(completed.id)).status).toBe('completed');
    expect(await eventsOf('catalog_entry.published', completed.id)).toEqual([]);

    // The rule reads the snapshot: fixing the agent afterwards does not help this entry, a new one passes.
    expect(
      (await ctx.send('PATCH', `/v1/agents/${agentId}`, { description: 'Now described.', capabilities: ['ocr'] }))
        .statusCode,
    ).toBe(200);
    expect(
      (await uploadArtifact(ctx, agentId, artifactParts(Buffer.from('# card'), 'text/markdown', 'card.md'))).statusCode,
    ).toBe(201);
    expect((await publish(completed.id)).json().details).toHaveLength(3);
    expect((await publish((await generated(agentId)).id)).statusCode).toBe(200);
  });

  it('publishes: status published, catalog_entry.published with exactly its data, shown in the catalog; publishing again changes nothing', async () => {
    const agentId = await catalogReadyAgent();
    const completed = await generated(agentId);
    const res = await publish(completed.id);
    expect(res.statusCode).toBe(200);
    const published = res.json() as Entry;
    expect(published).toMatchObject({ status: 'published', published_at: ctx.clock.now.toISOString() });
    const events = await eventsOf('catalog_entry.published', completed.id);
    expect(events.map((e) => e.data)).toEqual([
      { catalog_entry_id: completed.id, agent_id: agentId, version: 1, status: 'published' },
    ]);
    expect(Value.Check(schemaOf('catalog_entry.published'), events[0].data)).toBe(true);
    expect((await catalog()).data.find((e) => e.id === completed.id)).toEqual(published);

    expect((await publish(completed.id)).json()).toMatchObject({
      status: 'published',
      published_at: published.published_at,
    });
    expect(await eventsOf('catalog_entry.published', completed.id)).toHaveLength(1);
    expect(
      (await ctx.send('GET', `/v1/catalog-entries?agent_id=${agentId}&status=published`))
        .json()
        .data.map((e: Entry) => e.id),
    ).toEqual([completed.id]);
  });

  it('shows one entry per agent: publishing a newer version withdraws the older one, publishing the older again rolls back', async () => {
    const agentId = await catalogReadyAgent();
    const v1 = await generated(agentId);
    expect((await publish(v1.id)).statusCode).toBe(200);
    const v2 = await generated(agentId);
    expect((await catalogIds()).filter((id) => [v1.id, v2.id].includes(id))).toEqual([v1.id]);
    expect((await publish(v2.id)).statusCode).toBe(200);
    expect((await entry(v1.id)).status).toBe('withdrawn');
    expect((await catalogIds()).filter((id) => [v1.id, v2.id].includes(id))).toEqual([v2.id]);

    expect((await publish(v1.id)).json().status).toBe('published');
    expect((await entry(v2.id)).status).toBe('withdrawn');
    expect((await catalogIds()).filter((id) => [v1.id, v2.id].includes(id))).toEqual([v1.id]);
  });

  it('keeps one published entry per agent when two versions are published at once: publications of an agent wait for its row', async () => {
    const agentId = await catalogReadyAgent();
    const v1 = await generated(agentId);
    const v2 = await generated(agentId);
    const { result, waited } = await whileHeld(
      ctx.db,
      (tx) => tx.$queryRaw`SELECT id FROM agent_deployments WHERE id = ${agentId} FOR UPDATE`,
      () => Promise.all([v1, v2].map((e) => publish(e.id))),
      2,
    );
    expect(waited).toBe(2);
    expect(result.map((r) => r.statusCode)).toEqual([200, 200]);
    const statuses = await Promise.all([v1, v2].map(async (e) => (await entry(e.id)).status));
    expect(statuses.sort()).toEqual(['published', 'withdrawn']);
    expect((await catalogIds()).filter((id) => [v1.id, v2.id].includes(id))).toHaveLength(1);
  });

  it('withdraws: out of the catalog, withdrawn again is a no-op, only a published entry can be withdrawn', async () => {
    const agentId = await catalogReadyAgent();
    const completed = await generated(agentId);
    const early = await withdraw(completed.id);
    expect(early.statusCode).toBe(409);
    expect(early.json().code).toBe('invalid_transition');
    expect((await publish(completed.id)).statusCode).toBe(200);
    const res = await withdraw(completed.id);
    expect(res.statusCode).toBe(200);
    expect(res.json().status).toBe('withdrawn');
    expect(await catalogIds()).not.toContain(completed.id);
    expect((await withdraw(completed.id)).json().status).toBe('withdrawn');
    // The record stays downloadable.
    expect((await ctx.send('GET', `/v1/catalog-entries/${completed.id}/record`)).statusCode).toBe(200);
  });

  it('filters the catalog by capability and data classification, newest first, with cursors bound to the filters', async () => {
    const tag = `t${Date.now().toString(36)}`;
    const a = await generated(
      await catalogReadyAgent({ capabilities: [`${tag}.search`, 'ocr'], data_classification: 'public' }),
    );
    const b = await generated(
      await catalogReadyAgent({ capabilities: [`${tag}.search`], data_classification: 'restricted' }),
    );
    const c = await generated(
      await catalogReadyAgent({ capabilities: [`${tag}.other`], data_classification: 'restricted' }),
    );
    for (const e of [a, b, c]) expect((await publish(e.id)).statusCode).toBe(200);

    expect(await catalogIds(`?capability=${tag}.search`)).toEqual([b.id, a.id]);
    expect(await catalogIds(`?capability=${tag}.other`)).toEqual([c.id]);
    expect(await catalogIds(`?capability=${tag}`)).toEqual([]); // the exact name, not a prefix
    expect(await catalogIds(`?capability=${tag}.search&data_classification=restricted`)).toEqual([b.id]);
    expect((await catalogIds('?data_classification=restricted')).slice(0, 2)).toEqual([c.id, b.id]);

    const first = await catalog(`?capability=${tag}.search&limit=1`);
    expect(first.data.map((e) => e.id)).toEqual([b.id]);
    expect(first.page.has_more).toBe(true);
    const second = await catalog(`?capability=${tag}.search&limit=1&cursor=${first.page.next_cursor}`);
    expect(second.data.map((e) => e.id)).toEqual([a.id]);
    expect(second.page).toEqual({ next_cursor: null, has_more: false });
    const mismatched = await ctx.send(
      'GET',
      `/v1/catalog?capability=${tag}.other&limit=1&cursor=${first.page.next_cursor}`,
    );
    expect(mismatched.statusCode).toBe(422);
    expect(mismatched.json().details).toEqual([{ field: 'cursor', reason: 'invalid_format' }]);
    expect((await ctx.send('GET', '/v1/catalog?data_classification=secret')).statusCode).toBe(422);
    expect((await ctx.send('GET', '/v1/catalog?capability=Not%20A%20Name')).statusCode).toBe(422);

    // Another account sees none of it.
    const theirs = await catalog(`?capability=${tag}.search`, ctx.other.key);
    expect(theirs.data).toEqual([]);
  });

  it('takes the entries of a retired agent out of the catalog in the same transaction; they cannot be published again', async () => {
    const agentId = await catalogReadyAgent();
    const live = await generated(agentId);
    const completed = await generated(agentId);
    expect((await publish(live.id)).statusCode).toBe(200);
    expect(await catalogIds()).toContain(live.id);

    expect((await ctx.send('POST', `/v1/agents/${agentId}/retire`)).statusCode).toBe(200);
    expect(await catalogIds()).not.toContain(live.id);
    expect((await entry(live.id)).status).toBe('withdrawn');
    expect((await entry(completed.id)).status).toBe('completed');
    const retired = await ctx.db.prisma.agentDeployment.findUniqueOrThrow({ where: { id: agentId } });
    expect((await ctx.db.prisma.catalogEntry.findUniqueOrThrow({ where: { id: live.id } })).updated_at).toEqual(
      retired.retired_at,
    );

    for (const id of [live.id, completed.id]) {
      const res = await publish(id);
      expect(res.statusCode).toBe(409);
      expect(res.json().code).toBe('conflict');
    }
    expect((await ctx.send('POST', `/v1/agents/${agentId}/catalog-entries`)).statusCode).toBe(409);
  });
});
