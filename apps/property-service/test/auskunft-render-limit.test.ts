// The Auskunft PDF is drawn in the sandbox like the other documents (issue 37): the account's
// group bound answers 503 with Retry-After at once while other accounts go on, and a render that
// fails is a clean 500 pointing to the JSON export, not a stack; neither is recorded as an export.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, testSandbox, type Tenant, type TestApp } from '@platform/testkit';
import { buildPropertyApp } from '../src/app.js';
import { propertyDescriptor } from '../src/descriptor.js';
import { RENDER_AUSKUNFT } from '../src/leads/auskunft/pdf.js';

async function prospect(ctx: TestApp, tenant: Tenant): Promise<string> {
  const body = {
    nachname: 'Muster',
    email: 'muster@example.de',
    einwilligung: { zweck: 'Kontakt', erteilt_am: '2026-11-01T10:00:00Z' },
  };
  const res = await ctx.send('POST', '/leads/v1/interessenten', body, tenant.key);
  expect(res.statusCode).toBe(201);
  return res.json().id as string;
}

const pdf = (ctx: TestApp, id: string, tenant: Tenant) =>
  ctx.send('GET', `/leads/v1/interessenten/${id}/auskunft/pdf`, undefined, tenant.key);

/** The PDF exports recorded of the prospect. */
async function pdfExports(ctx: TestApp, id: string, tenant: Tenant): Promise<number> {
  const url = `/leads/v1/auskunftsprotokoll?interessent_id=${id}`;
  const records = (await ctx.send('GET', url, undefined, tenant.key)).json().daten as { format: string }[];
  return records.filter((record) => record.format === 'pdf').length;
}

describe('the Auskunft PDF under the sandbox group bound', () => {
  let ctx: TestApp;
  let work: string;
  beforeAll(async () => {
    ctx = await startTestApp(propertyDescriptor, buildPropertyApp, {
      sandbox: testSandbox({ processes: 2, maxPerGroup: 1 }),
    });
    work = mkdtempSync(join(tmpdir(), 'auskunft-hold-'));
  });
  afterAll(async () => {
    await ctx.close();
    rmSync(work, { recursive: true, force: true });
  });

  it("answers 503 with Retry-After while the account's slot is taken, serves other accounts, and again once it is free", async () => {
    const [mine, theirs] = [await prospect(ctx, ctx.tenant), await prospect(ctx, ctx.other)];
    expect((await pdf(ctx, mine, ctx.tenant)).statusCode).toBe(200); // the sandbox's child is up
    // A render of the account that cannot finish: its output is a pipe nobody reads yet.
    const pipe = join(work, 'held.pdf');
    execFileSync('mkfifo', [pipe]);
    const data = (await ctx.send('GET', `/leads/v1/interessenten/${mine}/auskunft`, undefined, ctx.tenant.key)).json();
    const held = ctx.sandbox.run(RENDER_AUSKUNFT, { data, files: {}, out: pipe }, { group: ctx.tenant.accountId });

    const refused = await pdf(ctx, mine, ctx.tenant);
    expect(refused.statusCode).toBe(503);
    expect(refused.headers['retry-after']).toBe('5');
    expect(refused.json()).toMatchObject({ code: 'dienst_nicht_verfuegbar' });
    expect(refused.json().message).toContain('zu viele Dokumente');
    const other = await pdf(ctx, theirs, ctx.other);
    expect(other.statusCode).toBe(200);
    expect(other.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');

    const drawn = readFile(pipe); // lets the held render finish
    expect((await held).bytes).toBe((await drawn).length);
    const again = await pdf(ctx, mine, ctx.tenant);
    expect(again.statusCode).toBe(200);
    expect(again.headers['content-type']).toBe('application/pdf');
    expect(await pdfExports(ctx, mine, ctx.tenant)).toBe(2); // the refused one is not an export
  });
});

describe('the Auskunft PDF when its render fails', () => {
  let ctx: TestApp;
  beforeAll(async () => {
    // A deadline no render can meet: every render ends as the sandbox's `timeout`.
    ctx = await startTestApp(propertyDescriptor, buildPropertyApp, { sandbox: testSandbox({ timeoutMs: 1 }) });
  });
  afterAll(() => ctx.close());

  it('answers a clean 500 that points to the JSON export, logs the cause and records nothing', async () => {
    const id = await prospect(ctx, ctx.tenant);
    const res = await pdf(ctx, id, ctx.tenant);
    expect(res.statusCode).toBe(500);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.json()).toEqual({
      code: 'interner_fehler',
      message: 'Die Auskunft konnte nicht als PDF erzeugt werden; dieselben Daten liefert GET …/auskunft als JSON.',
    });
    expect(ctx.logs.text).toContain('SandboxError');
    expect(await pdfExports(ctx, id, ctx.tenant)).toBe(0);
    expect(
      (await ctx.send('GET', `/leads/v1/interessenten/${id}/auskunft`, undefined, ctx.tenant.key)).statusCode,
    ).toBe(200);
  });
});
