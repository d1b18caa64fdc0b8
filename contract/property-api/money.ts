// The sale: a commission settlement with its invoices (PDF and XML), and payment.
import { describe, expect, it } from 'vitest';
import { setBillingProfile } from '@platform/billing';
import { TEST_ISSUER } from '@platform/billing/testing';
import { unwrap } from '@platform/client';
import { until } from '@platform/testkit';
import type { ContractRun } from '../harness.js';
import type { PropertyState } from './state.js';

export function describeMoney(run: ContractRun, state: PropertyState): void {
  const client = () => run.clients.property;

  describe('settlements and invoices', () => {
    it('records the sale: a settlement with an invoice per paying party, PDF, XML and payment', async () => {
      await setBillingProfile(run.db.prisma, run.property.accountId, TEST_ISSUER, new Date());
      const today = new Date().toISOString().slice(0, 10);
      const recipient = (name: string) => ({
        name,
        street: 'Lindenallee 3',
        postal_code: '14109',
        city: 'Berlin',
        email: 'rechnung@example.org',
      });
      const sold = await unwrap(
        client().POST('/v1/properties/{propertyId}/mark-sold', {
          params: { path: { propertyId: state.propertyId } },
          body: {
            price_eur: 415_000,
            date: today,
            invoice_recipients: { seller: recipient('Erika Mustermann'), buyer: recipient('Max Käufer') },
          },
        }),
      );
      expect(sold.status).toBe('sold');
      const settlements: string[] = [];
      for await (const s of client().settlements.list({ property_id: state.propertyId })) settlements.push(s.id);
      expect(settlements).toHaveLength(1);
      const settlement = await unwrap(
        client().GET('/v1/settlements/{settlementId}', { params: { path: { settlementId: settlements[0]! } } }),
      );
      expect(settlement.id).toBe(settlements[0]);
      const invoices: { id: string }[] = [];
      for await (const invoice of client().invoices.list({ settlement_id: settlement.id })) invoices.push(invoice);
      expect(invoices.length).toBeGreaterThan(0);
      const invoice = { params: { path: { invoiceId: invoices[0]!.id } } };
      const issued = await unwrap(client().GET('/v1/invoices/{invoiceId}', invoice));
      expect(issued.id).toBe(invoices[0]!.id);
      // Paid on its issue day: the account's calendar day (Europe/Berlin), which is not UTC's near midnight.
      const paidOn = issued.issue_date;
      const pdf = await until(async () => {
        const response = await client().GET('/v1/invoices/{invoiceId}/pdf', { ...invoice, parseAs: 'arrayBuffer' });
        return response.response.status === 200 ? response : undefined;
      }, 30_000);
      expect(pdf.response.headers.get('content-type')).toMatch(/application\/pdf/);
      const xml = await client().GET('/v1/invoices/{invoiceId}/xml', { ...invoice, parseAs: 'text' });
      expect(xml.data).toContain('CrossIndustryInvoice');
      expect(
        (await unwrap(client().POST('/v1/invoices/{invoiceId}/mark-paid', { ...invoice, body: { paid_on: paidOn } })))
          .state,
      ).toBe('paid');
      expect(
        (await client().POST('/v1/invoices/{invoiceId}/mark-paid', { ...invoice, body: { paid_on: paidOn } })).response
          .status,
      ).toBe(409);
      // The paid invoice corrected in full by a credit note: the invoice stays, and names it.
      const creditNote = await unwrap(
        client().POST('/v1/invoices/{invoiceId}/credit-note', {
          ...invoice,
          body: { reason: 'Der Kaufvertrag wurde rückabgewickelt.' },
        }),
      );
      expect(creditNote).toMatchObject({ type: 'credit_note', corrects_invoice_id: invoices[0]!.id });
      expect(creditNote.number).toMatch(/^KR-\d{4}-\d{6}$/);
      expect((await unwrap(client().GET('/v1/invoices/{invoiceId}', invoice))).credit_note_id).toBe(creditNote.id);
      // Its PDF is rendered by the worker like an invoice's.
      const creditNotePdf = await until(async () => {
        const response = await client().GET('/v1/invoices/{invoiceId}/pdf', {
          params: { path: { invoiceId: creditNote.id } },
          parseAs: 'arrayBuffer',
        });
        return response.response.status === 200 ? response : undefined;
      }, 30_000);
      expect(creditNotePdf.response.headers.get('content-type')).toMatch(/application\/pdf/);
    });
  });
}
