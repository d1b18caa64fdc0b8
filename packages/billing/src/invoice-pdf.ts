import {
  FONTS,
  MUTED,
  attachFacturX,
  contentWidth,
  factsTable,
  heading,
  paragraph,
  renderPdf,
  renderTask,
  tableRow,
  type PdfDocument,
} from '@platform/documents/pdf';
import { invoiceCii } from './cii.js';
import { decimal, euros, germanDate, percent } from './format.js';
import type { InvoiceDocumentData, InvoiceParty } from './invoice-data.js';

/** The invoices' renderer in the sandbox (both services' invoices; `./sandbox.ts` serves it). */
export const RENDER_INVOICE = renderTask<InvoiceDocumentData>('billing.render-invoice');

const UNIT_NAMES: Record<string, string> = { C62: 'Stk.', HUR: 'Std.', MON: 'Monat', E48: 'Einheit' };

function address(party: InvoiceParty): string {
  return [party.name, party.street, `${party.postal_code} ${party.city}`, party.country === 'DE' ? null : party.country]
    .filter(Boolean)
    .join('\n');
}

function lineTable(doc: PdfDocument, data: InvoiceDocumentData): void {
  const width = contentWidth(doc);
  const columns = [30, width - 30 - 60 - 50 - 80 - 80, 60, 50, 80, 80];
  const row = (texts: string[], font: string = FONTS.regular) =>
    tableRow(
      doc,
      texts.map((text, index) => ({ text, width: columns[index], font })),
    );
  row(['Pos.', 'Leistung', 'Menge', 'Einheit', 'Einzelpreis', 'Netto'], FONTS.bold);
  for (const line of data.lines) {
    const unitPrice = `${decimal((Number(line.unit_price_cents) / 100).toFixed(4))} €`;
    row([
      String(line.position),
      line.description,
      decimal(line.quantity),
      UNIT_NAMES[line.unit_code] ?? line.unit_code,
      unitPrice,
      euros(line.net_cents),
    ]);
  }
}

function totals(doc: PdfDocument, data: InvoiceDocumentData): void {
  const width = contentWidth(doc);
  const label = width - 160;
  const total = (text: string, amount: string, font: string = FONTS.regular) =>
    tableRow(
      doc,
      [
        { text, width: label, font },
        { text: amount, width: 160, font },
      ],
      { rule: false },
    );
  doc.moveDown(0.5);
  total('Summe netto', euros(data.net_cents));
  if (data.vat_category === 'S') total(`Umsatzsteuer ${percent(data.vat_rate_bp)}`, euros(data.vat_cents));
  else total('Nicht steuerbar (Innenumsatz innerhalb des Unternehmens)', euros(0));
  total('Rechnungsbetrag', euros(data.gross_cents), FONTS.bold);
}

/**
 * The PDF of an invoice with the §14 Abs. 4 UStG particulars: issuer and recipient with addresses,
 * the issuer's tax number or VAT id, date, number, supply and its date, net, rate, tax, gross. A
 * hybrid e-invoice (ZUGFeRD 2.3 / Factur-X): PDF/A-3b with fonts embedded and the invoice's CII XML
 * attached, the very bytes the XML download serves — `xrechnung.xml` (profile XRECHNUNG) for an
 * XRechnung, `factur-x.xml` (EN 16931) otherwise. Deterministic: dated by the issue date, so a
 * re-render gives the same bytes.
 */
export function renderInvoicePdf(data: InvoiceDocumentData): Promise<Buffer> {
  const title = documentTitle(data);
  return renderPdf(
    {
      title: `${title} ${data.number}`,
      author: data.issuer.name,
      language: 'de-DE',
      createdAt: new Date(`${data.issue_date}T00:00:00Z`),
    },
    (doc) => {
      paragraph(
        doc,
        [data.issuer.name, data.issuer.street, `${data.issuer.postal_code} ${data.issuer.city}`.trim()]
          .filter(Boolean)
          .join(' · '),
        { size: 8, color: MUTED },
      );
      doc.moveDown(0.5);
      paragraph(doc, address(data.recipient));
      doc.moveDown(1);
      heading(doc, `${title} ${data.number}`, { level: 1 });
      const period = data.service_period
        ? `${germanDate(data.service_period.start)} – ${germanDate(data.service_period.end)}`
        : null;
      factsTable(doc, [
        ['Rechnungsnummer', data.number],
        ['Rechnungsdatum', germanDate(data.issue_date)],
        [
          'Korrigiert Rechnung',
          data.preceding_invoice
            ? `${data.preceding_invoice.number} vom ${germanDate(data.preceding_invoice.issue_date)}`
            : null,
        ],
        period ? ['Leistungszeitraum', period] : ['Leistungsdatum', germanDate(data.service_date)],
        ['Fällig am', data.due_date ? germanDate(data.due_date) : data.vat_category === 'S' ? 'siehe Hinweis' : null],
        ['Steuernummer', data.issuer.tax_number],
        ['USt-IdNr.', data.issuer.vat_id],
        ['USt-IdNr. des Empfängers', data.recipient.vat_id],
      ]);
      doc.moveDown(1);
      lineTable(doc, data);
      totals(doc, data);
      if (data.notes.length > 0) {
        heading(doc, 'Hinweise');
        for (const note of data.notes) paragraph(doc, note);
      }
      if (data.payment) {
        heading(doc, 'Zahlung');
        const holder = data.payment.account_holder ?? data.issuer.name;
        paragraph(
          doc,
          `Bitte überweisen Sie den Rechnungsbetrag unter Angabe der Rechnungsnummer an ${holder}, IBAN ${data.payment.iban}${data.payment.bic ? `, BIC ${data.payment.bic}` : ''}.`,
        );
      }
      const contact = [data.issuer.contact, data.issuer.email, data.issuer.phone].filter(Boolean).join(' · ');
      if (contact) {
        doc.moveDown(1);
        paragraph(doc, contact, { size: 8, color: MUTED });
      }
      attachFacturX(doc, invoiceCii(data), { conformance: data.profile === 'xrechnung' ? 'XRECHNUNG' : 'EN 16931' });
    },
    { pdfA: true },
  );
}

/** "Rechnung", "Rechnungskorrektur" (a credit note, type 381: never "Gutschrift", which in VAT law is self-billing), or the internal one. */
function documentTitle(data: InvoiceDocumentData): string {
  if (data.vat_category === 'O') return 'Interne Leistungsverrechnung';
  return data.type_code === '381' ? 'Rechnungskorrektur' : 'Rechnung';
}
