// Every commission invoice is an XRechnung 3.0 and its PDF a ZUGFeRD 2.3 hybrid: checked with the
// outside world's tools — the D16B XSD (xmllint), the CEN EN 16931 and KoSIT XRechnung schematrons
// (Saxon), and poppler's pdfdetach / pdfinfo / pdffonts on the PDF. What a rule needs of a recipient
// or of the issuer is refused at issue time, before a number is taken.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setBillingProfile } from '@platform/billing';
import { TEST_ISSUER, fatalFailures, validateCii, warnings } from '@platform/billing/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderedInvoicePdf, startInvoicingApp } from './invoice-helpers.js';
import { validProperty, type PropertyTestContext } from './helpers.js';

let ctx: PropertyTestContext;
const work = mkdtempSync(join(tmpdir(), 'e-invoice-test-'));
beforeAll(async () => {
  ctx = await startInvoicingApp();
});
afterAll(async () => {
  await ctx.close();
  rmSync(work, { recursive: true, force: true });
});

const LEITWEG_ID = '04011000-12345-34';
const person = (name: string, email: string) => ({
  name,
  street: 'Lindenallee 3',
  postal_code: '14109',
  city: 'Berlin',
  email,
});
const { purchase_price_eur: _asking, ...apartment } = validProperty();

interface IssuedInvoice {
  id: string;
  number: string;
  party: string;
}

/** An active property with the fields, marked sold or rented with the body; resolves to the response. */
async function close(
  fields: Record<string, unknown>,
  action: 'mark-sold' | 'mark-rented',
  body: Record<string, unknown>,
) {
  const created = await ctx.send('POST', '/v1/properties', { ...apartment, ...fields });
  expect(created.statusCode, created.body).toBe(201);
  const id = created.json().id as string;
  expect((await ctx.send('POST', `/v1/properties/${id}/activate`)).statusCode).toBe(200);
  return { id, response: await ctx.send('POST', `/v1/properties/${id}/${action}`, { date: '2026-06-15', ...body }) };
}

async function invoicesOfProperty(propertyId: string): Promise<IssuedInvoice[]> {
  const settlement = (await ctx.send('GET', `/v1/settlements?property_id=${propertyId}`)).json().data[0] as {
    id: string;
  };
  const page = await ctx.send('GET', `/v1/invoices?settlement_id=${settlement.id}`);
  expect(page.statusCode, page.body).toBe(200);
  return page.json().data as IssuedInvoice[];
}

const xmlOf = async (invoice: IssuedInvoice) => {
  const res = await ctx.send('GET', `/v1/invoices/${invoice.id}/xml`);
  expect(res.statusCode, res.body).toBe(200);
  return res.body;
};

const run = (command: string, args: string[]) => execFileSync(command, args, { encoding: 'utf8' });

describe('commission invoices are XRechnung 3.0', () => {
  const documents: Record<string, string> = {};
  const invoices: Record<string, IssuedInvoice> = {};

  beforeAll(async () => {
    // A sale invoicing both parties (§656d: the buyer's waits for the seller's), the seller a public buyer with a Leitweg-ID.
    const both = await close(
      { purchase_price_eur: 500_000, commission: { seller_percent: 3.57, buyer_percent: 2.38, engaged_by: 'seller' } },
      'mark-sold',
      {
        price_eur: 500_000,
        invoice_recipients: {
          seller: {
            ...person('Stadt Musterstadt, Liegenschaftsamt', 'e-rechnung@musterstadt.example'),
            buyer_reference: LEITWEG_ID,
          },
          buyer: person('Max Käufer & Söhne', 'rechnung@kaeufer.example'),
        },
      },
    );
    expect(both.response.statusCode, both.response.body).toBe(200);
    // A sale invoicing one party only: a business buyer with its VAT id.
    const one = await close(
      { purchase_price_eur: 800_000, commission: { buyer_percent: 3.57, engaged_by: 'buyer' } },
      'mark-sold',
      {
        price_eur: 790_000,
        invoice_recipients: {
          buyer: { ...person('Käufer GmbH', 'einkauf@kaeufer-gmbh.example'), vat_id: 'DE987654321' },
        },
      },
    );
    expect(one.response.statusCode, one.response.body).toBe(200);
    // A letting engaged by the tenant: the tenant is invoiced.
    const letting = await close(
      { cold_rent_eur: 1_234, commission: { tenant_months: 2, engaged_by: 'buyer' } },
      'mark-rented',
      {
        cold_rent_eur: 1_234,
        invoice_recipients: { tenant: person('Mia Mieterin', 'mia@example.org') },
      },
    );
    expect(letting.response.statusCode, letting.response.body).toBe(200);

    const issued = {
      saleSeller: (await invoicesOfProperty(both.id)).find((i) => i.party === 'seller')!,
      saleBuyer: (await invoicesOfProperty(both.id)).find((i) => i.party === 'buyer')!,
      businessBuyer: (await invoicesOfProperty(one.id))[0],
      lettingTenant: (await invoicesOfProperty(letting.id))[0],
    };
    for (const [name, invoice] of Object.entries(issued)) {
      invoices[name] = invoice;
      documents[name] = await xmlOf(invoice);
    }
  }, 60_000);

  it('passes the D16B schema, EN 16931 and XRechnung 3.0 (fatal rules); warnings are listed', () => {
    expect(Object.keys(documents)).toEqual(['saleSeller', 'saleBuyer', 'businessBuyer', 'lettingTenant']);
    const validation = validateCii(documents);
    expect(validation.schema.status, validation.schema.output).toBe(0);
    for (const name of Object.keys(documents)) {
      expect(fatalFailures(validation, name, 'en16931'), name).toEqual([]);
      expect(fatalFailures(validation, name, 'xrechnung'), name).toEqual([]);
      const listed = [...warnings(validation, name, 'en16931'), ...warnings(validation, name, 'xrechnung')];
      if (listed.length > 0) console.info(`warnings of ${name}:\n  ${listed.join('\n  ')}`);
    }
  });

  it("names the XRechnung process and specification, and the buyer reference: a public buyer's Leitweg-ID, else the invoice number", () => {
    for (const xml of Object.values(documents)) {
      expect(xml).toContain('<ram:ID>urn:fdc:peppol.eu:2017:poacc:billing:01:1.0</ram:ID>');
      expect(xml).toContain('<ram:ID>urn:cen.eu:en16931:2017#compliant#urn:xeinkauf.de:kosit:xrechnung_3.0</ram:ID>');
      expect(xml).toContain('<ram:TypeCode>380</ram:TypeCode>');
    }
    expect(documents.saleSeller).toContain(`<ram:BuyerReference>${LEITWEG_ID}</ram:BuyerReference>`);
    expect(documents.saleBuyer).toContain(`<ram:BuyerReference>${invoices.saleBuyer.number}</ram:BuyerReference>`);
    expect(documents.businessBuyer).toContain('<ram:ID schemeID="VA">DE987654321</ram:ID>');
  });

  it('the PDF is a ZUGFeRD hybrid: PDF/A-3b, the XML download embedded byte for byte as xrechnung.xml, fonts embedded', async () => {
    const invoice = invoices.saleSeller;
    const file = await renderedInvoicePdf(ctx, invoice.id, work, 'invoice.pdf');

    expect(run('pdfdetach', ['-list', file])).toMatch(/^1 embedded files\n1: xrechnung\.xml\n$/);
    const extracted = join(work, 'extracted.xml');
    run('pdfdetach', ['-save', '1', '-o', extracted, file]);
    expect(readFileSync(extracted).equals(Buffer.from(await xmlOf(invoice), 'utf8'))).toBe(true);

    expect(run('pdfinfo', [file])).toMatch(/^PDF version:\s+1\.7$/m);
    const xmp = run('pdfinfo', ['-meta', file]);
    for (const expected of [
      /<pdfaid:part>3<\/pdfaid:part>/,
      /<pdfaid:conformance>B<\/pdfaid:conformance>/,
      /<fx:DocumentType>INVOICE<\/fx:DocumentType>/,
      /<fx:DocumentFileName>xrechnung\.xml<\/fx:DocumentFileName>/,
      /<fx:Version>1\.0<\/fx:Version>/,
      /<fx:ConformanceLevel>XRECHNUNG<\/fx:ConformanceLevel>/,
    ])
      expect(xmp).toMatch(expected);
    const raw = readFileSync(file).toString('latin1');
    expect(raw).toMatch(/\/AFRelationship\s*\/Alternative/);
    expect(raw).toMatch(/\/AF\s*\[/);
    expect(raw).toMatch(/\/OutputIntents\s*\[/);

    const fonts = run('pdffonts', [file])
      .split('\n')
      .slice(2)
      .filter((line) => line.trim());
    expect(fonts.length).toBeGreaterThan(0);
    for (const line of fonts) expect(line, line).toMatch(/\s+yes\s+(yes|no)\s+(yes|no)\s+\d+\s+\d+$/);
    expect(run('pdftotext', [file, '-'])).toContain(`Rechnung ${invoice.number}`);
  }, 60_000);
});

describe('what an e-invoice needs is asked before anything is issued', () => {
  const sale = { purchase_price_eur: 300_000, commission: { seller_percent: 3, buyer_percent: 3, engaged_by: 'both' } };

  it("422 naming each recipient's missing e-mail address (BT-49), and the sale is not recorded", async () => {
    const { id, response } = await close(sale, 'mark-sold', {
      price_eur: 300_000,
      invoice_recipients: {
        seller: person('Erika Mustermann', 'erika@example.org'),
        buyer: { name: 'Ohne Adresse', street: 'Weg 1', postal_code: '10115', city: 'Berlin' },
      },
    });
    expect(response.statusCode, response.body).toBe(422);
    expect(response.json()).toMatchObject({
      code: 'validation_failed',
      details: [{ field: 'invoice_recipients.buyer.email', reason: 'missing' }],
    });
    expect(response.json().message).toContain('BT-49');
    expect((await ctx.send('GET', `/v1/properties/${id}`)).json().status).toBe('active');
    expect((await ctx.send('GET', `/v1/settlements?property_id=${id}`)).json().data).toEqual([]);
  });

  it("409 naming what the issuer's billing profile lacks (contact person, phone: BR-DE-5, BR-DE-6); numbers stay gapless", async () => {
    await setBillingProfile(
      ctx.db.prisma,
      ctx.tenant.accountId,
      { ...TEST_ISSUER, phone: null, contact: null },
      ctx.clock.now,
    );
    try {
      const { response } = await close(sale, 'mark-sold', {
        price_eur: 300_000,
        invoice_recipients: {
          seller: person('Erika Mustermann', 'erika@example.org'),
          buyer: person('Max Käufer', 'max@example.org'),
        },
      });
      expect(response.statusCode, response.body).toBe(409);
      expect(response.json().details).toEqual([
        { field: 'billing_profile.contact', reason: 'missing' },
        { field: 'billing_profile.phone', reason: 'missing' },
      ]);
      expect(response.json().message).toMatch(/BR-DE-5.*BR-DE-6/);
    } finally {
      await setBillingProfile(ctx.db.prisma, ctx.tenant.accountId, TEST_ISSUER, ctx.clock.now);
    }
    const { response } = await close(sale, 'mark-sold', {
      price_eur: 300_000,
      invoice_recipients: {
        seller: person('Erika Mustermann', 'erika@example.org'),
        buyer: person('Max Käufer', 'max@example.org'),
      },
    });
    expect(response.statusCode, response.body).toBe(200);
    // The refused sale took no number: the account's invoices are numbered 1..n without a gap.
    const all = (await ctx.send('GET', '/v1/invoices?limit=100')).json().data as IssuedInvoice[];
    const numbers = all.map((invoice) => Number(invoice.number.slice(5))).sort((a, b) => a - b);
    expect(numbers).toEqual(numbers.map((_, index) => index + 1));
  });
});
