// The CII export checked with KoSIT's official XRechnung 3.0 schematron (test/validation/xrechnung,
// README there), beside the CEN EN 16931 one. Needs no database.
//
// The issue that started this reported XRechnung rejecting the invoices (PEPPOL-EN16931-R001: no BT-23
// business process; BR-DE-21 warning: BT-24 plain EN 16931): `asPlainEn16931` keeps that reproduction,
// the generator's own documents must pass. The negative controls below prove each rule can fail.
import { beforeAll, describe, expect, it } from 'vitest';
import { eInvoiceGaps, invoiceCii, type InvoiceDocumentData } from '../src/index.js';
import { commission, deferred } from './invoices.js';
import {
  TEST_ISSUER,
  failedAssertsOf,
  fatalFailures,
  validateCii,
  warnings,
  type CiiValidation,
} from '../src/testing.js';

// An issuer as findIssuer copies it from a billing profile set without --phone and --contact.
const { name, street, postal_code, city, country, vat_id, tax_number, email } = TEST_ISSUER;
const fromProfile: InvoiceDocumentData = {
  ...commission,
  issuer: { name, street, postal_code, city, country, vat_id, tax_number, email, phone: null, contact: null },
};

const creditNote: InvoiceDocumentData = {
  ...commission,
  type_code: '381',
  number: 'KR-2026-000001',
  issue_date: '2026-03-01',
  preceding_invoice: { number: commission.number, issue_date: commission.issue_date },
  notes: ['Die Rechnung 2026-000001 wird storniert: der Kaufvertrag wurde rückabgewickelt.'],
};
const noBuyerEmail: InvoiceDocumentData = { ...commission, recipient: { ...commission.recipient, email: null } };

const SELLER = /<ram:SellerTradeParty>[\s\S]*?<\/ram:SellerTradeParty>/;

/** A text copy of `xml` without the first match of `element` (a regexp); throws when there is none. */
function without(xml: string, element: RegExp, within: RegExp = /[\s\S]*/): string {
  const scope = within.exec(xml);
  if (!scope || !element.test(scope[0])) throw new Error(`nothing to remove: ${element} in ${within}`);
  return xml.replace(scope[0], () => scope[0].replace(element, ''));
}

const base = invoiceCii(commission);
const documents = {
  commission: base,
  deferred: invoiceCii(deferred),
  fromProfile: invoiceCii(fromProfile),
  creditNote: invoiceCii(creditNote),
  asPlainEn16931: invoiceCii({ ...commission, profile: 'en16931' }),
  noBuyerEmail: invoiceCii(noBuyerEmail),
  centOff: invoiceCii({ ...commission, gross_cents: commission.gross_cents + 1 }),
  // Negative controls: the same invoice with one element required by XRechnung taken out.
  noBuyerReference: without(base, /<ram:BuyerReference>[\s\S]*?<\/ram:BuyerReference>/),
  noSellerContact: without(base, /<ram:DefinedTradeContact>[\s\S]*?<\/ram:DefinedTradeContact>/, SELLER),
  noSellerContactName: without(base, /<ram:PersonName>[\s\S]*?<\/ram:PersonName>/, SELLER),
  noSellerContactPhone: without(
    base,
    /<ram:TelephoneUniversalCommunication>[\s\S]*?<\/ram:TelephoneUniversalCommunication>/,
    SELLER,
  ),
  noSellerContactEmail: without(
    base,
    /<ram:EmailURIUniversalCommunication>[\s\S]*?<\/ram:EmailURIUniversalCommunication>/,
    SELLER,
  ),
};
type Name = keyof typeof documents;

let validation: CiiValidation;
beforeAll(() => {
  validation = validateCii(documents);
}, 60_000);

const xrechnungFatal = (doc: Name) => fatalFailures(validation, doc, 'xrechnung');
const ids = (lines: string[]) => lines.map((line) => line.slice(0, line.indexOf(':')));

describe('CII export against the XRechnung 3.0 schematron (KoSIT)', () => {
  it('every document is valid CII D16B, and the untouched ones pass EN 16931', () => {
    expect(validation.schema.status, validation.schema.output).toBe(0);
    for (const doc of [
      'commission',
      'deferred',
      'fromProfile',
      'creditNote',
      'asPlainEn16931',
      'noBuyerEmail',
    ] as const)
      expect(fatalFailures(validation, doc)).toEqual([]);
  });

  it('keeps the rule sets apart: each failed assert is listed under, and tagged with, its rule set', () => {
    // BR-CO-15 (the grand total) is an EN 16931 rule, BR-DE-15 (the buyer reference) an XRechnung one.
    expect(ids(fatalFailures(validation, 'centOff'))).toContain('BR-CO-15');
    expect(ids(xrechnungFatal('centOff'))).not.toContain('BR-CO-15');
    expect(ids(xrechnungFatal('noBuyerReference'))).toContain('BR-DE-15');
    expect(ids(fatalFailures(validation, 'noBuyerReference'))).not.toContain('BR-DE-15');
    for (const ruleSet of ['en16931', 'xrechnung'] as const) {
      const asserts = Object.keys(documents).flatMap((doc) => failedAssertsOf(validation, doc, ruleSet));
      expect(asserts.length).toBeGreaterThan(0);
      expect(asserts.every((failure) => failure.ruleSet === ruleSet)).toBe(true);
    }
    expect(() => fatalFailures(validation, 'no such document', 'xrechnung')).toThrow(/was not validated/);
  });

  describe('the invoices the generator writes (profile xrechnung)', () => {
    it.each(['commission', 'deferred', 'creditNote'] as const)(
      '%s passes XRechnung 3.0: no error, no warning',
      (doc) => {
        expect(xrechnungFatal(doc)).toEqual([]);
        expect(warnings(validation, doc, 'xrechnung')).toEqual([]);
      },
    );

    it('the same invoice as plain EN 16931 (how it was written before) fails XRechnung as reported: R001, and BR-DE-21 warns', () => {
      expect(xrechnungFatal('asPlainEn16931')).toEqual(['PEPPOL-EN16931-R001: Business process MUST be provided.']);
      expect(warnings(validation, 'asPlainEn16931', 'xrechnung')).toEqual([
        'BR-DE-21: [BR-DE-21] Das Element "Specification identifier" (BT-24) soll syntaktisch der Kennung des Standards XRechnung entsprechen.',
      ]);
    });

    it('a billing profile without phone and contact person fails BR-DE-5 and BR-DE-6, which eInvoiceGaps names before issuing', () => {
      // A profile set without --phone/--contact has neither; XRechnung requires both (BT-41, BT-42).
      expect(ids(xrechnungFatal('fromProfile')).sort()).toEqual(['BR-DE-5', 'BR-DE-6']);
      const gaps = eInvoiceGaps(fromProfile.issuer, fromProfile.recipient);
      expect(gaps.issuer.map((gap) => gap.rule).sort()).toEqual(['BR-DE-5', 'BR-DE-6']);
      expect(gaps.recipient).toEqual([]);
    });

    it('a recipient without an e-mail address fails PEPPOL-EN16931-R010 (BT-49), which eInvoiceGaps names before issuing', () => {
      expect(ids(xrechnungFatal('noBuyerEmail'))).toEqual(['PEPPOL-EN16931-R010']);
      expect(eInvoiceGaps(commission.issuer, noBuyerEmail.recipient).recipient.map((gap) => gap.rule)).toEqual([
        'PEPPOL-EN16931-R010',
      ]);
      expect(eInvoiceGaps(commission.issuer, commission.recipient)).toEqual({ issuer: [], recipient: [] });
    });
  });

  describe('negative controls (a text copy of the invoice with one required element removed)', () => {
    it('the untouched invoice has the buyer reference and a complete seller contact', () => {
      expect(base).toMatch(/<ram:BuyerReference>2026-000001<\/ram:BuyerReference>/);
      const seller = SELLER.exec(base)?.[0] ?? '';
      expect(seller).toMatch(/<ram:DefinedTradeContact><ram:PersonName>Petra Beispiel<\/ram:PersonName>/);
      expect(seller).toContain('<ram:CompleteNumber>+49 30 1234567</ram:CompleteNumber>');
      expect(seller).toContain('<ram:URIID>rechnung@immobilien-beispiel.de</ram:URIID>');
      expect(ids(xrechnungFatal('commission')).filter((id) => /^BR-DE-(15|2|5|6|7)$/.test(id))).toEqual([]);
    });

    it.each<[Name, string, string]>([
      ['noBuyerReference', 'BR-DE-15', 'BT-10 buyer reference'],
      ['noSellerContact', 'BR-DE-2', 'BG-6 seller contact'],
      ['noSellerContactName', 'BR-DE-5', 'BT-41 seller contact point'],
      ['noSellerContactPhone', 'BR-DE-6', 'BT-42 seller contact telephone'],
      ['noSellerContactEmail', 'BR-DE-7', 'BT-43 seller contact e-mail'],
    ])('%s fails XRechnung with fatal %s (%s)', (doc, rule) => {
      expect(validation.schema.output).toContain(`${doc}.xml validates`);
      expect(ids(xrechnungFatal(doc))).toContain(rule);
      // EN 16931 does not require these: only the XRechnung rule set catches the removal.
      expect(fatalFailures(validation, doc)).toEqual([]);
    });
  });
});
