import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TEST_ISSUER, fatalFailures, validateCii } from '@platform/billing/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invoiceJobs } from '../src/invoices/index.js';
import { startInvoicingApp } from './invoice-helpers.js';
import { eventData, validProperty, type PropertyTestContext } from './helpers.js';

let ctx: PropertyTestContext;
const work = mkdtempSync(join(tmpdir(), 'invoices-test-'));
beforeAll(async () => {
  ctx = await startInvoicingApp();
});
afterAll(async () => {
  await ctx.close();
  rmSync(work, { recursive: true, force: true });
});

const SELLER = {
  name: 'Erika Mustermann',
  street: 'Lindenallee 3',
  postal_code: '14109',
  city: 'Berlin',
  email: 'erika@example.org',
};
const BUYER = {
  name: 'Max Käufer & Söhne',
  street: 'Hauptstraße 1',
  postal_code: '80331',
  city: 'München',
  email: 'rechnung@kaeufer.example',
};
const { purchase_price_eur: _asking, ...apartment } = validProperty();

async function active(fields: Record<string, unknown>, key = ctx.tenant.key): Promise<string> {
  const created = await ctx.send('POST', '/v1/properties', { ...apartment, ...fields }, key);
  expect(created.statusCode, created.body).toBe(201);
  const id = created.json().id as string;
  expect((await ctx.send('POST', `/v1/properties/${id}/activate`, undefined, key)).statusCode).toBe(200);
  return id;
}

const invoicesOf = async (settlementId: string) => {
  const res = await ctx.send('GET', `/v1/invoices?settlement_id=${settlementId}`);
  expect(res.statusCode, res.body).toBe(200);
  return (res.json().data as Record<string, unknown>[]).sort((a, b) =>
    String(a.number).localeCompare(String(b.number)),
  );
};
const settlementOf = async (propertyId: string) =>
  (await ctx.send('GET', `/v1/settlements?property_id=${propertyId}`)).json().data[0] as {
    id: string;
    lines: { party: string; invoice_id: string | null }[];
  };
const pdfText = (pdf: Buffer) => {
  const file = join(work, `${Math.random().toString(36).slice(2)}.pdf`);
  writeFileSync(file, pdf);
  return execFileSync('pdftotext', [file, '-'], { encoding: 'utf8' }).replace(/\s+/g, ' ');
};
const numberOf = (invoice: Record<string, unknown>) => Number(String(invoice.number).slice(5));

describe('commission invoices', () => {
  it('§656d BGB: a sale engaged by the seller gives the seller an invoice due in 14 days and the buyer one due only after the seller has paid', async () => {
    const id = await active({
      purchase_price_eur: 500_000,
      commission: { seller_percent: 3.57, buyer_percent: 2.38, engaged_by: 'seller' },
    });
    const sold = await ctx.send('POST', `/v1/properties/${id}/mark-sold`, {
      price_eur: 500_000,
      date: '2026-06-15',
      invoice_recipients: { seller: SELLER, buyer: BUYER },
    });
    expect(sold.statusCode, sold.body).toBe(200);

    const settlement = await settlementOf(id);
    const [seller, buyer] = await invoicesOf(settlement.id);
    expect(numberOf(buyer)).toBe(numberOf(seller) + 1); // the party the other waits for is numbered first
    expect(seller).toMatchObject({
      party: 'seller',
      state: 'issued',
      property_id: id,
      issue_date: '2026-06-30',
      service_date: '2026-06-15',
      due_date: '2026-07-14',
      due_after_invoice_id: null,
      issuer: {
        name: TEST_ISSUER.name,
        vat_id: TEST_ISSUER.vat_id,
        tax_number: TEST_ISSUER.tax_number,
        street: TEST_ISSUER.street,
      },
      recipient: { name: SELLER.name, city: 'Berlin', country: 'DE', vat_id: null },
      // 50,000,000 ct × 3.57 % = 1,785,000; VAT 19 % = 339,150; gross 2,124,150.
      net_cents: 1_785_000,
      vat_rate_basis_points: 1900,
      vat_cents: 339_150,
      gross_cents: 2_124_150,
      document_status: 'generating',
    });
    expect(seller.number).toMatch(/^2026-\d{6}$/);
    expect(seller.description).toContain('Verkäuferanteil: 3,57 % von 500.000,00 €');
    expect(buyer).toMatchObject({
      party: 'buyer',
      due_date: null,
      due_after_invoice_id: seller.id,
      net_cents: 1_190_000,
      gross_cents: 1_416_100,
    });
    expect((buyer.notes as string[])[0]).toContain(`§ 656d Abs. 1 Satz 2 BGB`);
    expect((buyer.notes as string[])[0]).toContain(String(seller.number));

    // The settlement and its event name the invoices, never the recipients.
    expect(settlement.lines.map((line) => [line.party, line.invoice_id])).toEqual([
      ['seller', seller.id],
      ['buyer', buyer.id],
    ]);
    const [event] = (await eventData(ctx, 'settlement.created')).filter((data) => data.property_id === id);
    expect((event.lines as { invoice_id: string }[]).map((line) => line.invoice_id)).toEqual([seller.id, buyer.id]);
    expect(JSON.stringify(event)).not.toContain(SELLER.name);

    // Paying the seller's invoice makes the buyer's due 14 days later.
    const early = await ctx.send('POST', `/v1/invoices/${seller.id}/mark-paid`, { paid_on: '2026-07-01' });
    expect(early.statusCode).toBe(422);
    expect(early.json().details).toEqual([{ field: 'paid_on', reason: 'out_of_range' }]);
    ctx.clock.now = new Date('2026-07-03T09:00:00Z');
    const paid = await ctx.send('POST', `/v1/invoices/${seller.id}/mark-paid`, { paid_on: '2026-07-02' });
    expect(paid.statusCode, paid.body).toBe(200);
    expect(paid.json()).toMatchObject({ state: 'paid', paid_on: '2026-07-02' });
    expect((await ctx.send('GET', `/v1/invoices/${buyer.id}`)).json()).toMatchObject({
      state: 'issued',
      due_date: '2026-07-16',
    });
    const again = await ctx.send('POST', `/v1/invoices/${seller.id}/mark-paid`);
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toContain('already marked paid on 2026-07-02');
    const buyerPaid = await ctx.send('POST', `/v1/invoices/${buyer.id}/mark-paid`, null);
    expect(buyerPaid.json()).toMatchObject({ state: 'paid', paid_on: '2026-07-03' });
    ctx.clock.now = new Date('2026-06-30T10:00:00Z');
  });

  it('renders the PDF with the §14 UStG particulars and serves it with an ETag; the CII XML carries the same figures', async () => {
    const id = await active({
      purchase_price_eur: 399_999,
      commission: { seller_percent: 2.975, buyer_percent: 2.975, engaged_by: 'both' },
    });
    expect(
      (
        await ctx.send('POST', `/v1/properties/${id}/mark-sold`, {
          price_eur: 399_999,
          date: '2026-06-15',
          invoice_recipients: { seller: SELLER, buyer: BUYER },
        })
      ).statusCode,
    ).toBe(200);
    const [, buyer] = await invoicesOf((await settlementOf(id)).id);
    expect((await ctx.send('GET', `/v1/invoices/${buyer.id}/pdf`)).statusCode).toBe(404); // not rendered yet

    const run = () =>
      invoiceJobs.generate.run(
        { db: ctx.db.prisma, now: ctx.clock.now, storage: ctx.storage, sandbox: ctx.sandbox, jobs: ctx.jobs },
        { invoice_id: String(buyer.id) },
      );
    expect(await run()).toMatchObject({ outcome: 'completed' });
    expect(await run()).toMatchObject({ outcome: 'skipped' });
    const pdf = await ctx.app.inject({
      method: 'GET',
      url: `/v1/invoices/${buyer.id}/pdf`,
      headers: { apikey: ctx.tenant.key },
    });
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    const text = pdfText(pdf.rawPayload);
    for (const expected of [
      `Rechnung ${buyer.number}`,
      'Muster Immobilien GmbH',
      'Steuernummer 30/123/45678',
      'USt-IdNr. DE123456789',
      'Max Käufer & Söhne',
      '80331 München',
      'Rechnungsdatum 30.06.2026',
      'Leistungsdatum 15.06.2026',
      'Fällig am 14.07.2026',
      // 39,999,900 ct × 2.975 % = 1,189,997.025 → 1,189,997; VAT 226,099; gross 1,416,096.
      'Summe netto 11.899,97 €',
      'Umsatzsteuer 19 % 2.260,99 €',
      'Rechnungsbetrag 14.160,96 €',
      'IBAN DE89370400440532013000',
    ]) {
      expect(text).toContain(expected);
    }
    const cached = await ctx.app.inject({
      method: 'GET',
      url: `/v1/invoices/${buyer.id}/pdf`,
      headers: { apikey: ctx.tenant.key, 'if-none-match': pdf.headers.etag as string },
    });
    expect(cached.statusCode).toBe(304);

    const xml = await ctx.app.inject({
      method: 'GET',
      url: `/v1/invoices/${buyer.id}/xml`,
      headers: { apikey: ctx.tenant.key },
    });
    expect(xml.statusCode).toBe(200);
    expect(xml.headers['content-type']).toContain('application/xml');
    expect(xml.body).toContain(`<ram:ID>${buyer.number}</ram:ID>`);
    expect(xml.body).toContain('<ram:GrandTotalAmount>14160.96</ram:GrandTotalAmount>');
    expect(xml.body).toContain('Max Käufer &amp; Söhne');
    expect(
      (
        await ctx.app.inject({
          method: 'GET',
          url: `/v1/invoices/${buyer.id}/xml`,
          headers: { apikey: ctx.tenant.key, 'if-none-match': xml.headers.etag as string },
        })
      ).statusCode,
    ).toBe(304);
  });

  it('serves CII XML that passes the official D16B schema and the EN 16931 rules, a §656d invoice included', async () => {
    const id = await active({
      purchase_price_eur: 480_000,
      commission: { seller_percent: 3.57, buyer_percent: 1.19, engaged_by: 'seller' },
    });
    const recipients = { seller: SELLER, buyer: { ...BUYER, vat_id: 'DE987654321', email: 'einkauf@kaeufer.example' } };
    expect(
      (
        await ctx.send('POST', `/v1/properties/${id}/mark-sold`, {
          price_eur: 480_000,
          date: '2026-06-01',
          invoice_recipients: recipients,
        })
      ).statusCode,
    ).toBe(200);
    const [seller, buyer] = await invoicesOf((await settlementOf(id)).id);
    const xml = async (invoiceId: unknown) => (await ctx.send('GET', `/v1/invoices/${String(invoiceId)}/xml`)).body;
    const validation = validateCii({ seller: await xml(seller.id), buyer: await xml(buyer.id) });
    expect(validation.schema.status, validation.schema.output).toBe(0);
    expect(fatalFailures(validation, 'seller')).toEqual([]);
    expect(fatalFailures(validation, 'buyer')).toEqual([]);
    expect(await xml(buyer.id)).not.toContain('<ram:DueDateDateTime>');
  }, 60_000);

  it('a letting engaged by the tenant invoices the tenant only (WoVermittG)', async () => {
    const id = await active({
      purchase_price_eur: undefined,
      cold_rent_eur: 1_234,
      commission: { tenant_months: 2, engaged_by: 'buyer' },
    });
    const rented = await ctx.send('POST', `/v1/properties/${id}/mark-rented`, {
      cold_rent_eur: 1_234,
      date: '2026-06-20',
      invoice_recipients: { tenant: BUYER },
    });
    expect(rented.statusCode, rented.body).toBe(200);
    const invoices = await invoicesOf((await settlementOf(id)).id);
    expect(invoices).toHaveLength(1);
    expect(invoices[0]).toMatchObject({
      party: 'tenant',
      net_cents: 246_800,
      vat_cents: 46_892,
      gross_cents: 293_692,
      due_date: '2026-07-14',
    });
    expect(invoices[0].description).toContain('2 Monatskaltmieten à 1.234,00 €');
  });

  it("§656d BGB: the spec's equal shares without engaged_by invoice the seller first and hold the buyer's until the seller has paid", async () => {
    const id = await active({ purchase_price_eur: 420_000, commission: { buyer_percent: 3.57, seller_percent: 3.57 } });
    const sold = await ctx.send('POST', `/v1/properties/${id}/mark-sold`, {
      price_eur: 420_000,
      date: '2026-06-15',
      invoice_recipients: { seller: SELLER, buyer: BUYER },
    });
    expect(sold.statusCode, sold.body).toBe(200);
    const [seller, buyer] = await invoicesOf((await settlementOf(id)).id);
    // 42,000,000 ct × 3.57 % = 1,499,400; VAT 19 % = 284,886; gross 1,784,286 each.
    expect(seller).toMatchObject({
      party: 'seller',
      due_date: '2026-07-14',
      due_after_invoice_id: null,
      net_cents: 1_499_400,
      gross_cents: 1_784_286,
    });
    expect(buyer).toMatchObject({
      party: 'buyer',
      due_date: null,
      due_after_invoice_id: seller.id,
      net_cents: 1_499_400,
      gross_cents: 1_784_286,
    });
    expect((buyer.notes as string[])[0]).toContain('§ 656d Abs. 1 Satz 2 BGB');
  });

  it('refuses recipients that cannot be invoiced, and changes nothing', async () => {
    const terms = {
      purchase_price_eur: 300_000,
      commission: { seller_percent: 3.57, buyer_percent: 3.57, engaged_by: 'both' },
    };
    const missing = await active(terms);
    const partial = await ctx.send('POST', `/v1/properties/${missing}/mark-sold`, {
      invoice_recipients: { seller: SELLER },
    });
    expect(partial.statusCode).toBe(422);
    expect(partial.json().details).toEqual([{ field: 'invoice_recipients.buyer', reason: 'missing' }]);
    expect((await ctx.send('GET', `/v1/properties/${missing}`)).json().status).toBe('active');

    const noTerms = await active({ purchase_price_eur: 300_000 });
    const nothing = await ctx.send('POST', `/v1/properties/${noTerms}/mark-sold`, {
      invoice_recipients: { seller: SELLER },
    });
    expect(nothing.statusCode).toBe(422);
    expect(nothing.json().details).toEqual([{ field: 'invoice_recipients', reason: 'not_allowed' }]);

    const badRecipient = await ctx.send('POST', `/v1/properties/${missing}/mark-sold`, {
      invoice_recipients: { seller: { ...SELLER, postal_code: '' }, buyer: BUYER },
    });
    expect(badRecipient.statusCode).toBe(422);

    // The other tenant has no billing profile: 409, the property stays active, no settlement.
    const otherId = await active(terms, ctx.other.key);
    const noProfile = await ctx.send(
      'POST',
      `/v1/properties/${otherId}/mark-sold`,
      { invoice_recipients: { seller: SELLER, buyer: BUYER } },
      ctx.other.key,
    );
    expect(noProfile.statusCode).toBe(409);
    expect(noProfile.json().message).toContain('pnpm cli account set-billing');
    expect((await ctx.send('GET', `/v1/properties/${otherId}`, undefined, ctx.other.key)).json().status).toBe('active');
    expect(
      (await ctx.send('GET', `/v1/settlements?property_id=${otherId}`, undefined, ctx.other.key)).json().data,
    ).toEqual([]);
  });

  it('numbers invoices of concurrent sales without a gap or a double, and keeps them to their account', async () => {
    const terms = {
      purchase_price_eur: 250_000,
      commission: { seller_percent: 3, buyer_percent: 3, engaged_by: 'both' },
    };
    const before = await ctx.db.prisma.invoice.count({ where: { account_id: ctx.tenant.accountId } });
    const ids = await Promise.all(Array.from({ length: 8 }, () => active(terms)));
    const results = await Promise.all(
      ids.map((id) =>
        ctx.send('POST', `/v1/properties/${id}/mark-sold`, { invoice_recipients: { seller: SELLER, buyer: BUYER } }),
      ),
    );
    expect(results.map((res) => res.statusCode)).toEqual(ids.map(() => 200));
    const numbers = (
      await ctx.db.prisma.invoice.findMany({ where: { account_id: ctx.tenant.accountId }, select: { number: true } })
    )
      .map((row) => Number(row.number.slice(5)))
      .sort((a, b) => a - b);
    expect(numbers).toEqual(Array.from({ length: before + 16 }, (_, index) => index + 1));

    const [anyInvoice] = await invoicesOf((await settlementOf(ids[0])).id);
    expect((await ctx.send('GET', `/v1/invoices/${anyInvoice.id}`, undefined, ctx.other.key)).statusCode).toBe(404);
    expect(
      (await ctx.send('POST', `/v1/invoices/${anyInvoice.id}/mark-paid`, undefined, ctx.other.key)).statusCode,
    ).toBe(404);
    expect((await ctx.send('GET', `/v1/invoices/${anyInvoice.id}/xml`, undefined, ctx.other.key)).statusCode).toBe(404);
    expect((await ctx.send('GET', '/v1/invoices', undefined, ctx.other.key)).json().data).toEqual([]);
  });
});
