// The invoice as UN/CEFACT Cross Industry Invoice (CII D16B): XRechnung 3.0 (a CIUS of EN 16931, the
// syntax also of ZUGFeRD 2.3's XRECHNUNG profile) or plain EN 16931. Validated in the tests with the
// official XSD, the CEN EN 16931 schematron and KoSIT's XRechnung schematron (test/validation/).
import { centsPrice, date, el, formattedDate, hundredths, quantity, text } from './cii-xml.js';
import type { InvoiceDocumentData, InvoiceLine, InvoiceParty, InvoiceProfile } from './invoice-data.js';

const NAMESPACES = [
  'xmlns:rsm="urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100"',
  'xmlns:ram="urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100"',
  'xmlns:qdt="urn:un:unece:uncefact:data:standard:QualifiedDataType:100"',
  'xmlns:udt="urn:un:unece:uncefact:data:standard:UnqualifiedDataType:100"',
].join(' ');

/** BT-24 of each profile. */
const SPECIFICATION: Record<InvoiceProfile, string> = {
  xrechnung: 'urn:cen.eu:en16931:2017#compliant#urn:xeinkauf.de:kosit:xrechnung_3.0',
  en16931: 'urn:cen.eu:en16931:2017',
};
/** BT-23: the Peppol billing process, which XRechnung requires (PEPPOL-EN16931-R001). */
const BILLING_PROCESS = 'urn:fdc:peppol.eu:2017:poacc:billing:01:1.0';

/** BT-120 of category O (BR-O-10 asks for a reason text or code; both are given). */
const NOT_SUBJECT_TO_VAT = 'Nicht steuerbar (Innenumsatz)';

/** The invoice (or credit note) as a CII XML document (UTF-8) of its profile. */
export function invoiceCii(data: InvoiceDocumentData): string {
  const outsideVat = data.vat_category === 'O';
  const amount = (name: string, cents: number, currency?: string) =>
    text(name, hundredths(cents), currency ? { currencyID: currency } : {});
  const lineTotal = data.lines.reduce((sum, line) => sum + line.net_cents, 0);

  const content = [
    el(
      'rsm:ExchangedDocumentContext',
      data.profile === 'xrechnung' &&
        el('ram:BusinessProcessSpecifiedDocumentContextParameter', text('ram:ID', BILLING_PROCESS)),
      el('ram:GuidelineSpecifiedDocumentContextParameter', text('ram:ID', SPECIFICATION[data.profile])),
    ),
    el(
      'rsm:ExchangedDocument',
      text('ram:ID', data.number),
      text('ram:TypeCode', data.type_code),
      date('ram:IssueDateTime', data.issue_date),
      ...data.notes.map((note) => el('ram:IncludedNote', text('ram:Content', note))),
    ),
    el(
      'rsm:SupplyChainTradeTransaction',
      ...data.lines.map((line) => lineItem(line, data)),
      el(
        'ram:ApplicableHeaderTradeAgreement',
        text('ram:BuyerReference', data.buyer_reference),
        party('ram:SellerTradeParty', data.issuer, { seller: true, outsideVat }),
        party('ram:BuyerTradeParty', data.recipient, { seller: false, outsideVat }),
      ),
      // BT-72 the date of supply; for a period BG-14 below instead. The element itself is required.
      data.service_period
        ? '<ram:ApplicableHeaderTradeDelivery/>'
        : el(
            'ram:ApplicableHeaderTradeDelivery',
            el('ram:ActualDeliverySupplyChainEvent', date('ram:OccurrenceDateTime', data.service_date)),
          ),
      el(
        'ram:ApplicableHeaderTradeSettlement',
        text('ram:InvoiceCurrencyCode', data.currency),
        paymentMeans(data),
        el(
          'ram:ApplicableTradeTax',
          amount('ram:CalculatedAmount', data.vat_cents),
          text('ram:TypeCode', 'VAT'),
          outsideVat && text('ram:ExemptionReason', NOT_SUBJECT_TO_VAT),
          amount('ram:BasisAmount', data.net_cents),
          text('ram:CategoryCode', data.vat_category),
          outsideVat && text('ram:ExemptionReasonCode', 'VATEX-EU-O'),
          !outsideVat && text('ram:RateApplicablePercent', hundredths(data.vat_rate_bp)),
        ),
        data.service_period &&
          el(
            'ram:BillingSpecifiedPeriod',
            date('ram:StartDateTime', data.service_period.start),
            date('ram:EndDateTime', data.service_period.end),
          ),
        // BR-CO-25: an amount due needs a due date or payment terms.
        el(
          'ram:SpecifiedTradePaymentTerms',
          data.due_date
            ? date('ram:DueDateDateTime', data.due_date)
            : text('ram:Description', data.notes.join('\n') || 'Fällig nach gesonderter Mitteilung'),
        ),
        el(
          'ram:SpecifiedTradeSettlementHeaderMonetarySummation',
          amount('ram:LineTotalAmount', lineTotal),
          amount('ram:TaxBasisTotalAmount', data.net_cents),
          amount('ram:TaxTotalAmount', data.vat_cents, data.currency),
          amount('ram:GrandTotalAmount', data.gross_cents),
          amount('ram:DuePayableAmount', data.gross_cents),
        ),
        // BT-25/BT-26: the invoice a credit note corrects (after the totals, as the D16B schema orders it).
        data.preceding_invoice &&
          el(
            'ram:InvoiceReferencedDocument',
            text('ram:IssuerAssignedID', data.preceding_invoice.number),
            formattedDate('ram:FormattedIssueDateTime', data.preceding_invoice.issue_date),
          ),
      ),
    ),
  ].join('');
  return `<?xml version="1.0" encoding="UTF-8"?>\n<rsm:CrossIndustryInvoice ${NAMESPACES}>${content}</rsm:CrossIndustryInvoice>\n`;
}

function lineItem(line: InvoiceLine, data: InvoiceDocumentData): string {
  return el(
    'ram:IncludedSupplyChainTradeLineItem',
    el('ram:AssociatedDocumentLineDocument', text('ram:LineID', String(line.position))),
    el('ram:SpecifiedTradeProduct', text('ram:Name', line.description)),
    el(
      'ram:SpecifiedLineTradeAgreement',
      el('ram:NetPriceProductTradePrice', text('ram:ChargeAmount', centsPrice(line.unit_price_cents))),
    ),
    el(
      'ram:SpecifiedLineTradeDelivery',
      text('ram:BilledQuantity', quantity(line.quantity), { unitCode: line.unit_code }),
    ),
    el(
      'ram:SpecifiedLineTradeSettlement',
      el(
        'ram:ApplicableTradeTax',
        text('ram:TypeCode', 'VAT'),
        text('ram:CategoryCode', data.vat_category),
        // BR-O-05: no rate on a line outside the scope of VAT.
        data.vat_category === 'S' && text('ram:RateApplicablePercent', hundredths(data.vat_rate_bp)),
      ),
      el('ram:SpecifiedTradeSettlementLineMonetarySummation', text('ram:LineTotalAmount', hundredths(line.net_cents))),
    ),
  );
}

function party(
  name: string,
  p: InvoiceParty,
  { seller, outsideVat }: { seller: boolean; outsideVat: boolean },
): string {
  // BR-O-02: an invoice outside the scope of VAT names neither the seller's nor the buyer's VAT id.
  const vatId = outsideVat ? null : p.vat_id;
  // The tax number (FC) is the seller's only (BT-32); BR-CO-26 wants a seller identifier when there
  // is no VAT id, and the tax number identifies the seller (BT-29).
  const taxNumber = seller ? p.tax_number : null;
  return el(
    name,
    seller && !vatId && text('ram:ID', taxNumber),
    text('ram:Name', p.name),
    el(
      'ram:DefinedTradeContact',
      text('ram:PersonName', p.contact),
      el('ram:TelephoneUniversalCommunication', text('ram:CompleteNumber', p.phone)),
      el('ram:EmailURIUniversalCommunication', text('ram:URIID', p.email)),
    ),
    el(
      'ram:PostalTradeAddress',
      text('ram:PostcodeCode', p.postal_code),
      text('ram:LineOne', p.street),
      text('ram:CityName', p.city),
      text('ram:CountryID', p.country),
    ),
    el('ram:URIUniversalCommunication', text('ram:URIID', p.email, { schemeID: 'EM' })),
    el('ram:SpecifiedTaxRegistration', text('ram:ID', vatId, { schemeID: 'VA' })),
    el('ram:SpecifiedTaxRegistration', text('ram:ID', taxNumber, { schemeID: 'FC' })),
  );
}

/** BG-16: SEPA credit transfer (58) to the issuer's IBAN, otherwise 1 (instrument not defined). */
function paymentMeans(data: InvoiceDocumentData): string {
  const payment = data.payment;
  if (!payment) return el('ram:SpecifiedTradeSettlementPaymentMeans', text('ram:TypeCode', '1'));
  return el(
    'ram:SpecifiedTradeSettlementPaymentMeans',
    text('ram:TypeCode', '58'),
    el(
      'ram:PayeePartyCreditorFinancialAccount',
      text('ram:IBANID', payment.iban.replace(/\s+/g, '')),
      text('ram:AccountName', payment.account_holder),
    ),
    el('ram:PayeeSpecifiedCreditorFinancialInstitution', text('ram:BICID', payment.bic)),
  );
}
