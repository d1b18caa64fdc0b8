// Corrections by credit note: an issued invoice is never changed; a credit note (type 381, its own
// gapless series, BT-25/26 naming the invoice) corrects it in full. The same validators as for
// invoices: the D16B XSD, EN 16931 and XRechnung schematrons, and poppler on the hybrid PDF.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fatalFailures, validateCii } from '@platform/billing/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderedInvoicePdf, startInvoicingApp } from './invoice-helpers.js';
import { eventData, validProperty, type PropertyTestContext } from './helpers.js';

let ctx: PropertyTestContext;
const work = mkdtempSync(join(tmpdir(), 'credit-notes-test-'));
beforeAll(async () => {
  ctx = await startInvoicingApp();
});
afterAll(async () => {
  await ctx.close();
  rmSync(work, { recursive: true, force: true });
});

interface InvoiceView {
  id: string;
  type: 'invoice' | 'credit_note';
  number: string;
  party: string;
  state: string;
  settlement_id: string;
  property_id: string;
  issue_date: string;
  corrects_invoice_id: string | null;
  credit_note_id: string | null;
  net_cents: number;
  vat_cents: number;
  gross_cents: number;
  notes: string[];
  recipient: Record<string, unknown>;
}

const person = (name: string, email: string) => ({
  name,
  street: 'Lindenallee 3',
  postal_code: '14109',
  city: 'Berlin',
  email,
});
const { purchase_price_eur: _asking, ...apartment } = validProperty();

/** A sale invoicing seller and buyer; resolves to the settlement id and its two invoices (seller first). */
async function sale(): Promise<{ settlementId: string; seller: InvoiceView; buyer: InvoiceView }> {
  const created = await ctx.send('POST', '/v1/properties', {
    ...apartment,
    purchase_price_eur: 400_000,
    commission: { seller_percent: 3, buyer_percent: 3, engaged_by: 'both' },
  });
  const id = created.json().id as string;
  expect((await ctx.send('POST', `/v1/properties/${id}/activate`)).statusCode).toBe(200);
  const sold = await ctx.send('POST', `/v1/properties/${id}/mark-sold`, {
    price_eur: 400_000,
    date: '2026-06-15',
    invoice_recipients: {
      seller: person('Erika Mustermann', 'erika@example.org'),
      buyer: person('Max Käufer', 'max@example.org'),
    },
  });
  expect(sold.statusCode, sold.body).toBe(200);
  const settlementId = (await ctx.send('GET', `/v1/settlements?property_id=${id}`)).json().data[0].id as string;
  const invoices = (await ctx.send('GET', `/v1/invoices?settlement_id=${settlementId}`)).json().data as InvoiceView[];
  return {
    settlementId,
    seller: invoices.find((i) => i.party === 'seller')!,
    buyer: invoices.find((i) => i.party === 'buyer')!,
  };
}

const credit = (invoiceId: string, reason = 'Der Kaufvertrag wurde rückabgewickelt.') =>
  ctx.send('POST', `/v1/invoices/${invoiceId}/credit-note`, { reason });

describe('a credit note corrects an invoice in full', () => {
  let settlementId: string;
  let invoice: InvoiceView;
  let creditNote: InvoiceView;

  beforeAll(async () => {
    const sold = await sale();
    settlementId = sold.settlementId;
    invoice = sold.seller;
    const res = await credit(invoice.id);
    expect(res.statusCode, res.body).toBe(201);
    creditNote = res.json();
  });

  it('is a credit note of its own series, with the invoice’s recipient and amounts, and the reason printed', () => {
    expect(creditNote).toMatchObject({
      type: 'credit_note',
      number: 'KR-2026-000001',
      corrects_invoice_id: invoice.id,
      credit_note_id: null,
      settlement_id: settlementId,
      property_id: invoice.property_id,
      party: 'seller',
      state: 'issued',
      issue_date: '2026-06-30',
      net_cents: invoice.net_cents,
      vat_cents: invoice.vat_cents,
      gross_cents: invoice.gross_cents,
      recipient: invoice.recipient,
    });
    expect(creditNote.notes[0]).toContain(`storniert die Rechnung ${invoice.number}`);
    expect(creditNote.notes[0]).toContain('Der Kaufvertrag wurde rückabgewickelt.');
  });

  it('leaves the invoice as issued, and names the credit note on it and on the settlement line', async () => {
    const after = (await ctx.send('GET', `/v1/invoices/${invoice.id}`)).json() as InvoiceView;
    expect(after).toEqual({ ...invoice, credit_note_id: creditNote.id });
    const settlement = (await ctx.send('GET', `/v1/settlements/${settlementId}`)).json();
    expect(settlement.lines.map((l: Record<string, unknown>) => [l.party, l.invoice_id, l.credit_note_id])).toEqual([
      ['seller', invoice.id, creditNote.id],
      ['buyer', expect.any(String), null],
    ]);
  });

  it('announces invoice.credited (ids, numbers and amounts, no names)', async () => {
    expect(await eventData(ctx, 'invoice.credited')).toContainEqual({
      invoice_id: invoice.id,
      credit_note_id: creditNote.id,
      credit_note_number: 'KR-2026-000001',
      settlement_id: settlementId,
      property_id: invoice.property_id,
      gross_cents: invoice.gross_cents,
    });
  });

  it('is an XRechnung 3.0 of type 381 naming the invoice (BT-25, BT-26), valid like every invoice', async () => {
    const xml = (await ctx.send('GET', `/v1/invoices/${creditNote.id}/xml`)).body;
    expect(xml).toContain('<ram:TypeCode>381</ram:TypeCode>');
    expect(xml).toMatch(
      new RegExp(
        `<ram:InvoiceReferencedDocument><ram:IssuerAssignedID>${invoice.number}</ram:IssuerAssignedID>` +
          `<ram:FormattedIssueDateTime><qdt:DateTimeString format="102">${invoice.issue_date.replace(/-/g, '')}</qdt:DateTimeString>`,
      ),
    );
    const validation = validateCii({ creditNote: xml });
    expect(validation.schema.status, validation.schema.output).toBe(0);
    expect(fatalFailures(validation, 'creditNote', 'en16931')).toEqual([]);
    expect(fatalFailures(validation, 'creditNote', 'xrechnung')).toEqual([]);
  }, 60_000);

  it('has a hybrid PDF titled Rechnungskorrektur, embedding its XML byte for byte', async () => {
    const file = await renderedInvoicePdf(ctx, creditNote.id, work, 'credit-note.pdf');
    const text = execFileSync('pdftotext', [file, '-'], { encoding: 'utf8' }).replace(/\s+/g, ' ');
    expect(text).toContain('Rechnungskorrektur KR-2026-000001');
    expect(text).toContain(`Korrigiert Rechnung ${invoice.number} vom 30.06.2026`);
    const extracted = join(work, 'credit-note.xml');
    execFileSync('pdfdetach', ['-save', '1', '-o', extracted, file]);
    const xml = (await ctx.send('GET', `/v1/invoices/${creditNote.id}/xml`)).body;
    expect(readFileSync(extracted).equals(Buffer.from(xml, 'utf8'))).toBe(true);
  }, 60_000);

  it('corrects an invoice once: again, or a credit note itself, is 409; a reason is required', async () => {
    const again = await credit(invoice.id);
    expect(again.statusCode).toBe(409);
    expect(again.json().details).toEqual([
      { field: 'invoiceId', reason: 'not_allowed', conflicting_id: creditNote.id },
    ]);
    expect((await credit(creditNote.id)).statusCode).toBe(409);
    const { buyer } = await sale();
    for (const body of [{}, { reason: '' }, { reason: '   ' }, { reason: 'x', extra: 1 }]) {
      const res = await ctx.send('POST', `/v1/invoices/${buyer.id}/credit-note`, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(422);
    }
    expect((await ctx.send('GET', `/v1/invoices/${buyer.id}`)).json().credit_note_id).toBeNull();
  });
});

describe('credit notes under concurrency', () => {
  it('numbers concurrent credit notes gaplessly, and corrects one invoice only once however many ask', async () => {
    const sales = await Promise.all([sale(), sale(), sale()]);
    const invoices = sales.flatMap((s) => [s.seller, s.buyer]);
    const before = (await ctx.send('GET', '/v1/invoices?limit=100')).json().data as InvoiceView[];
    const creditNotesBefore = before.filter((i) => i.type === 'credit_note').length;

    const results = await Promise.all([
      ...invoices.map((i) => credit(i.id)),
      // The same invoice asked for four more times at once: still one credit note.
      ...Array.from({ length: 4 }, () => credit(invoices[0].id)),
    ]);
    const created = results.filter((r) => r.statusCode === 201).map((r) => r.json() as InvoiceView);
    expect(results.filter((r) => r.statusCode === 409)).toHaveLength(4);
    expect(created).toHaveLength(invoices.length);
    expect(new Set(created.map((c) => c.corrects_invoice_id))).toEqual(new Set(invoices.map((i) => i.id)));

    const all = (await ctx.send('GET', '/v1/invoices?limit=100')).json().data as InvoiceView[];
    const numbers = all
      .filter((i) => i.type === 'credit_note')
      .map((i) => Number(i.number.slice('KR-2026-'.length)))
      .sort((a, b) => a - b);
    expect(numbers).toHaveLength(creditNotesBefore + invoices.length);
    expect(numbers).toEqual(numbers.map((_, index) => index + 1));
  }, 60_000);
});
