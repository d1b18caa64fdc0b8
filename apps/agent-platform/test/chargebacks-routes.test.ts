import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TEST_PUBLIC_BASE_URL, until } from '@platform/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHARGEBACKS_JOB, settleChargebacks } from '../src/chargebacks/index.js';
import { startAgentPlatformApp, validAgent, type AgentPlatformTestContext } from './helpers.js';

const work = mkdtempSync(join(tmpdir(), 'chargebacks-test-'));
let ctx: AgentPlatformTestContext;
let stopWorker: () => Promise<void>;
let agentId: string;
let rateFrom: string;

/** The PDF as text (pdftotext), whitespace collapsed. */
function pdftotext(pdf: Buffer): string {
  const file = join(work, `${createHash('sha256').update(pdf).digest('hex')}.pdf`);
  writeFileSync(file, pdf);
  return execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' }).replace(/\s+/g, ' ');
}

async function usage(key: string, agent: string, records: { team: string; quantity: number; occurred_at: string }[]) {
  const body = {
    records: records.map((r, i) => ({ client_id: `${r.team}-${r.occurred_at}-${i}`, unit: 'per_1k_tokens', ...r })),
  };
  expect((await ctx.send('POST', `/v1/agents/${agent}/usage`, body, key)).statusCode).toBe(200);
}

beforeAll(async () => {
  ctx = await startAgentPlatformApp();
  stopWorker = await ctx.startJobWorker();
  ctx.clock.now = new Date('2026-09-20T08:00:00Z');
  const agent = (await ctx.send('POST', '/v1/agents', validAgent())).json();
  agentId = agent.id;
  rateFrom = agent.created_at;
  ctx.clock.now = new Date('2026-11-20T08:00:00Z');
  await usage(ctx.tenant.key, agentId, [
    { team: 'Accounts payable', quantity: 2, occurred_at: '2026-11-03T10:00:00Z' },
    { team: 'Accounts payable', quantity: 0.5, occurred_at: '2026-11-04T10:00:00Z' },
    { team: 'Accounts payable', quantity: 1, occurred_at: '2026-10-30T10:00:00Z' }, // October: not settled before, so late on November's settlement
    { team: 'Treasury', quantity: 1.25, occurred_at: '2026-11-05T10:00:00Z' },
  ]);
  // The run by hand (as `pnpm cli jobs run chargebacks --period 2026-11 --account …`): it enqueues the PDFs.
  await CHARGEBACKS_JOB.run(
    {
      db: ctx.db.prisma,
      now: new Date('2026-12-01T01:30:00Z'),
      storage: ctx.storage,
      sandbox: ctx.sandbox,
      jobs: ctx.jobs,
    },
    { period: '2026-11', account_id: ctx.tenant.accountId },
  );
}, 60_000);
afterAll(async () => {
  await stopWorker();
  await ctx.close();
  rmSync(work, { recursive: true, force: true });
});

const get = (url: string, key = ctx.tenant.key) => ctx.send('GET', url, undefined, key);
const list = async (url: string) => (await get(url)).json().data as Record<string, unknown>[];

describe('GET /v1/chargebacks/settlements', () => {
  it('lists the account’s settlements, filtered by period and team', async () => {
    const all = await list('/v1/chargebacks/settlements');
    expect(all.map((s) => [s.team, s.period, s.net_cents])).toEqual(
      expect.arrayContaining([
        ['Accounts payable', '2026-11', 420], // (2 + 0.5) × 120 = 300 and 1 × 120 = 120 (late)
        ['Treasury', '2026-11', 150],
      ]),
    );
    expect(all).toHaveLength(2);
    expect((await list('/v1/chargebacks/settlements?team=Treasury')).map((s) => s.team)).toEqual(['Treasury']);
    expect(await list('/v1/chargebacks/settlements?period=2026-10')).toEqual([]);
    const page = (await get('/v1/chargebacks/settlements?limit=1')).json();
    expect(page.page.has_more).toBe(true);
    expect((await get(`/v1/chargebacks/settlements?limit=1&cursor=${page.page.next_cursor}`)).json().data).toHaveLength(
      1,
    );
    expect(await list('/v1/chargebacks/settlements?period=2026-11&team=Treasury')).toHaveLength(1);
  });

  it('answers bad filters with 422 validation_failed', async () => {
    const res = await get('/v1/chargebacks/settlements?period=2026-13');
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ code: 'validation_failed', details: [{ field: 'period' }] });
    expect((await get('/v1/internal-invoices?team=')).statusCode).toBe(422);
    expect((await get('/v1/chargebacks/settlements?cursor=forged')).statusCode).toBe(422);
  });

  it('shows one settlement with its lines: late usage marked, the rate valid at the time, the method', async () => {
    const [payable] = await list('/v1/chargebacks/settlements?team=Accounts%20payable');
    const res = await get(`/v1/chargebacks/settlements/${payable.id}`);
    expect(res.statusCode).toBe(200);
    const rate = { amount_cents: 120, unit: 'per_1k_tokens', valid_from: rateFrom };
    expect(res.json()).toEqual({
      id: payable.id,
      period: '2026-11',
      team: 'Accounts payable',
      net_cents: 420,
      late_cents: 120,
      internal_invoice: { id: expect.any(String), number: '2026-000001' },
      created_at: '2026-12-01T01:30:00.000Z',
      method: 'quantity × rate, rounded half up once per line',
      lines: [
        {
          position: 1,
          agent_id: agentId,
          usage_period: '2026-10',
          late: true,
          records: 1,
          quantity: '1',
          unit: 'per_1k_tokens',
          rate,
          priced: true,
          amount_cents: 120,
        },
        {
          position: 2,
          agent_id: agentId,
          usage_period: '2026-11',
          late: false,
          records: 2,
          quantity: '2.5',
          unit: 'per_1k_tokens',
          rate,
          priced: true,
          amount_cents: 300,
        },
      ],
    });
  });

  it('answers an unknown or another account’s settlement with 404', async () => {
    const [payable] = await list('/v1/chargebacks/settlements');
    expect((await get(`/v1/chargebacks/settlements/${payable.id}`, ctx.other.key)).json()).toEqual({
      code: 'not_found',
      message: 'No chargeback settlement with this id.',
    });
    expect((await get('/v1/chargebacks/settlements/stl_missing')).statusCode).toBe(404);
  });
});

describe('internal invoices', () => {
  const completed = () =>
    until(async () => {
      const invoices = await list('/v1/internal-invoices');
      return invoices.length === 2 && invoices.every((i) => i.status === 'completed') ? invoices : undefined;
    }, 20_000);

  it('lists one invoice per settlement and renders each PDF in the background', async () => {
    const invoices = await completed();
    const treasury = invoices.find((i) => i.team === 'Treasury')!;
    const [settlement] = await list('/v1/chargebacks/settlements?team=Treasury');
    expect(treasury).toEqual({
      id: expect.any(String),
      number: '2026-000002',
      team: 'Treasury',
      period: '2026-11',
      issue_date: '2026-12-01',
      net_cents: 150,
      settlement_id: settlement.id,
      status: 'completed',
      pdf_url: `${TEST_PUBLIC_BASE_URL}/v1/internal-invoices/${treasury.id}/pdf`,
      pdf: { size: expect.any(Number), sha256: expect.stringMatching(/^[0-9a-f]{64}$/) },
      failure_reason: null,
      created_at: '2026-12-01T01:30:00.000Z',
      completed_at: expect.any(String),
    });
    expect((await get(`/v1/internal-invoices/${treasury.id}`)).json()).toEqual(treasury);
    expect((await list('/v1/internal-invoices?team=Treasury&period=2026-11')).map((i) => i.id)).toEqual([treasury.id]);
    expect(await list('/v1/internal-invoices?period=2026-12')).toEqual([]);
  });

  it('serves the PDF with its ETag: number, team, period, lines and amounts', async () => {
    const invoices = await completed();
    const payable = invoices.find((i) => i.team === 'Accounts payable')!;
    const res = await ctx.app.inject({
      method: 'GET',
      url: `/v1/internal-invoices/${payable.id}/pdf`,
      headers: { apikey: ctx.tenant.key },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers.etag).toBe(`"${(payable.pdf as { sha256: string }).sha256}"`);
    const cached = await ctx.app.inject({
      method: 'GET',
      url: `/v1/internal-invoices/${payable.id}/pdf`,
      headers: { apikey: ctx.tenant.key, 'if-none-match': res.headers.etag as string },
    });
    expect(cached.statusCode).toBe(304);
    const text = pdftotext(res.rawPayload);
    for (const expected of [
      'Interne Leistungsverrechnung 2026-000001',
      'Accounts payable',
      '01.11.2026 – 30.11.2026',
      '01.12.2026',
      'Invoice triage',
      `(${agentId}), Nutzung 2026-10 (Nachberechnung`, // the late line first
      `(${agentId}), Nutzung 2026-11, je 1.000 Tokens`,
      'je 1.000 Tokens',
      '1 Stk. 1,2 € 1,20 €', // 1 × 1.20 € (the rate: 120 cents per 1,000 tokens)
      '2,5 Stk. 1,2 € 3,00 €', // 2.5 × 1.20 €
      'Summe netto 4,20 €',
      'Rechnungsbetrag 4,20 €',
      'Nicht steuerbar',
      `Account ${ctx.tenant.accountId}`, // no billing profile: the account's name is the issuer
    ]) {
      expect(text, expected).toContain(expected);
    }
  });

  it('answers 404 for the PDF while it is generating, and for another account’s invoice', async () => {
    // The other account's run without the worker's queue: its invoice stays `generating`.
    ctx.clock.now = new Date('2026-11-20T08:00:00Z');
    const theirs = (await ctx.send('POST', '/v1/agents', validAgent(), ctx.other.key)).json().id as string;
    await usage(ctx.other.key, theirs, [{ team: 'Ops', quantity: 1, occurred_at: '2026-11-10T10:00:00Z' }]);
    const {
      internal_invoice_ids: [id],
    } = await settleChargebacks(ctx.db.prisma, {
      accountId: ctx.other.accountId,
      period: '2026-11',
      now: new Date('2026-12-02T00:00:00Z'),
    });
    const res = await get(`/v1/internal-invoices/${id}/pdf`, ctx.other.key);
    expect(res.statusCode).toBe(404);
    expect(res.json().message).toBe("The internal invoice's PDF is not ready (status generating).");
    expect((await get(`/v1/internal-invoices/${id}`, ctx.other.key)).json()).toMatchObject({
      number: '2026-000001',
      status: 'generating',
      pdf: null,
    });
    expect((await get(`/v1/internal-invoices/${id}`)).json()).toEqual({
      code: 'not_found',
      message: 'No internal invoice with this id.',
    });
    expect((await get(`/v1/internal-invoices/${id}/pdf`)).statusCode).toBe(404);
  });
});
