// What the invoice tests share: an app whose account can issue invoices, and a rendered PDF on disk
// (for poppler's tools).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setBillingProfile } from '@platform/billing';
import { TEST_ISSUER } from '@platform/billing/testing';
import { expect } from 'vitest';
import { invoiceJobs } from '../src/invoices/index.js';
import { startPropertyApp, type PropertyTestContext } from './helpers.js';

/** The property app with the tenant's complete billing profile (TEST_ISSUER), its clock on 2026-06-30. */
export async function startInvoicingApp(): Promise<PropertyTestContext> {
  const ctx = await startPropertyApp();
  ctx.clock.now = new Date('2026-06-30T10:00:00Z');
  await setBillingProfile(ctx.db.prisma, ctx.tenant.accountId, TEST_ISSUER, ctx.clock.now);
  return ctx;
}

/** Renders the invoice's PDF with its generation job, downloads it and saves it as `dir/name`; resolves to the path. */
export async function renderedInvoicePdf(
  ctx: PropertyTestContext,
  invoiceId: string,
  dir: string,
  name: string,
): Promise<string> {
  const generated = await invoiceJobs.generate.run(
    { db: ctx.db.prisma, now: ctx.clock.now, storage: ctx.storage, sandbox: ctx.sandbox, jobs: ctx.jobs },
    { invoice_id: invoiceId },
  );
  expect(generated).toMatchObject({ outcome: 'completed' });
  const pdf = await ctx.app.inject({
    method: 'GET',
    url: `/v1/invoices/${invoiceId}/pdf`,
    headers: { apikey: ctx.tenant.key },
  });
  expect(pdf.statusCode).toBe(200);
  expect(pdf.headers['content-type']).toBe('application/pdf');
  const file = join(dir, name);
  writeFileSync(file, pdf.rawPayload);
  return file;
}
