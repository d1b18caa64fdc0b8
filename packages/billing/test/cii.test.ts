// The CII export validated with the official CII D16B XSD (xmllint) and the CEN EN 16931 schematron
// compiled to XSLT (Saxon-HE): see test/validation/en16931/README.md. Needs no database.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { centsPrice, hundredths } from '../src/cii-xml.js';
import { invoiceCii, type InvoiceDocumentData } from '../src/index.js';
import { fatalFailures, validateCii, type CiiValidation } from '../src/testing.js';
import { agency, commission as base, condition, deferred as baseDeferred } from './invoices.js';

const escapedName = 'Erika & Max <Mustermann> "Käufer"';
const commission: InvoiceDocumentData = { ...base, recipient: { ...base.recipient, name: escapedName } };
const deferred: InvoiceDocumentData = { ...baseDeferred, recipient: commission.recipient };

const chargeback: InvoiceDocumentData = {
  profile: 'en16931',
  type_code: '380',
  number: 'IV-2026-000001',
  issue_date: '2026-02-02',
  service_date: '2026-01-31',
  service_period: { start: '2026-01-01', end: '2026-01-31' },
  due_date: '2026-02-16',
  notes: ['Interne Verrechnung'],
  currency: 'EUR',
  issuer: { ...agency, name: 'Beispiel Services GmbH' },
  recipient: {
    ...agency,
    name: 'Immobilien Beispiel GmbH, Niederlassung München',
    vat_id: 'DE987654321',
    email: null,
    contact: null,
    phone: null,
  },
  buyer_reference: 'KST-4711',
  payment: null,
  lines: [
    {
      position: 1,
      description: 'Objektaufbereitung',
      quantity: '2.5',
      unit_code: 'HUR',
      unit_price_cents: '4500',
      net_cents: 11_250,
    },
    {
      position: 2,
      description: 'Telefonservice (Minutenpreis umgerechnet)',
      quantity: '1.5',
      unit_code: 'HUR',
      unit_price_cents: '6000.5',
      net_cents: 9_001,
    },
  ],
  vat_category: 'O',
  vat_rate_bp: 0,
  net_cents: 20_251,
  vat_cents: 0,
  gross_cents: 20_251,
};

const documents = {
  commission,
  deferred,
  chargeback,
  broken: { ...commission, gross_cents: commission.gross_cents + 1 },
};
type Name = keyof typeof documents;

let dir: string;
let schema: CiiValidation['schema'];
let validation: CiiValidation;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'cii-'));
  mkdirSync(join(dir, 'in'));
  const xml = Object.fromEntries(Object.entries(documents).map(([name, data]) => [name, invoiceCii(data)]));
  for (const [name, text] of Object.entries(xml)) writeFileSync(join(dir, 'in', `${name}.xml`), text);
  validation = validateCii(xml);
  schema = validation.schema;
}, 60_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Reads a value back with libxml2's parser (namespace-agnostic XPath). */
function xpath(name: Name, path: string): string {
  const expr = `string(${path.replace(/(^|\/)(\w+)/g, "$1*[local-name()='$2']")})`;
  return spawnSync('xmllint', ['--xpath', expr, join(dir, 'in', `${name}.xml`)], { encoding: 'utf8' }).stdout.replace(
    /\n$/,
    '',
  );
}

const fatal = (name: Name) => fatalFailures(validation, name).join('\n');

describe('CII export (EN 16931)', () => {
  it('is valid against the CII D16B XSD', () => {
    expect(schema.output).toMatch(/commission\.xml validates/);
    expect(schema.output).toMatch(/deferred\.xml validates/);
    expect(schema.output).toMatch(/chargeback\.xml validates/);
    expect(schema.status, schema.output).toBe(0);
  });

  it.each(['commission', 'deferred', 'chargeback'] as const)('%s invoice passes the EN 16931 schematron', (name) => {
    expect(fatal(name)).toBe('');
  });

  it('fails the schematron when the grand total is a cent off (BR-CO-15)', () => {
    expect(fatal('broken')).toMatch(/^BR-CO-15: /m);
  });

  it('writes the values back as given, with exact decimals', () => {
    const settlement = 'CrossIndustryInvoice/SupplyChainTradeTransaction/ApplicableHeaderTradeSettlement';
    const totals = `${settlement}/SpecifiedTradeSettlementHeaderMonetarySummation`;
    expect(readFileSync(join(dir, 'in', 'commission.xml'), 'utf8')).toMatch(
      /^<\?xml version="1\.0" encoding="UTF-8"\?>/,
    );
    expect(xpath('commission', 'CrossIndustryInvoice/ExchangedDocument/ID')).toBe('2026-000001');
    expect(xpath('commission', `${totals}/LineTotalAmount`)).toBe('10710.00');
    expect(xpath('commission', `${totals}/TaxTotalAmount`)).toBe('2034.90');
    expect(xpath('commission', `${totals}/GrandTotalAmount`)).toBe('12744.90');
    expect(xpath('commission', `${totals}/DuePayableAmount`)).toBe('12744.90');
    expect(xpath('commission', `${settlement}/SpecifiedTradePaymentTerms/DueDateDateTime/DateTimeString`)).toBe(
      '20260224',
    );
    expect(
      xpath(
        'commission',
        `${settlement}/SpecifiedTradeSettlementPaymentMeans/PayeePartyCreditorFinancialAccount/IBANID`,
      ),
    ).toBe('DE02120300000000202051');
    expect(xpath('deferred', `${settlement}/SpecifiedTradePaymentTerms/Description`)).toBe(condition);
    expect(xpath('deferred', 'CrossIndustryInvoice/ExchangedDocument/IncludedNote/Content')).toBe(condition);
    expect(xpath('chargeback', `${totals}/GrandTotalAmount`)).toBe('202.51');
    expect(xpath('chargeback', `${settlement}/BillingSpecifiedPeriod/StartDateTime/DateTimeString`)).toBe('20260101');
    expect(xpath('chargeback', `${settlement}/SpecifiedTradeSettlementPaymentMeans/TypeCode`)).toBe('1');
    const line2 = 'CrossIndustryInvoice/SupplyChainTradeTransaction/IncludedSupplyChainTradeLineItem[2]';
    expect(xpath('chargeback', `${line2}/SpecifiedLineTradeAgreement/NetPriceProductTradePrice/ChargeAmount`)).toBe(
      '60.005',
    );
    expect(xpath('chargeback', `${line2}/SpecifiedLineTradeDelivery/BilledQuantity`)).toBe('1.5');
    // Category O: no VAT id of either party (BR-O-02); the tax number identifies the seller (BR-CO-26).
    expect(readFileSync(join(dir, 'in', 'chargeback.xml'), 'utf8')).not.toContain('schemeID="VA"');
  });

  it('formats cents and unit prices without floating point', () => {
    expect([0, 5, -5, 10, 123_456, 9_007_199_254_740_991].map(hundredths)).toEqual([
      '0.00',
      '0.05',
      '-0.05',
      '0.10',
      '1234.56',
      '90071992547409.91',
    ]);
    expect(['1500', '12.5', '12.50', '0.123456', '0.005', '1', '33.335'].map(centsPrice)).toEqual([
      '15.00',
      '0.125',
      '0.125',
      '0.0012',
      '0.0001',
      '0.01',
      '0.3334',
    ]);
  });

  it('escapes text: a name with & < > " round-trips', () => {
    expect(readFileSync(join(dir, 'in', 'commission.xml'), 'utf8')).toContain('Erika &amp; Max &lt;Mustermann&gt;');
    expect(
      xpath(
        'commission',
        'CrossIndustryInvoice/SupplyChainTradeTransaction/ApplicableHeaderTradeAgreement/BuyerTradeParty/Name',
      ),
    ).toBe(escapedName);
  });
});
