// The invoices the billing tests validate: a commission invoice of an agency (an issuer with contact
// person, phone and e-mail), its §656d variant (due only after the other side has paid).
import type { InvoiceDocumentData, InvoiceParty } from '../src/index.js';

export const agency: InvoiceParty = {
  name: 'Immobilien Beispiel GmbH',
  street: 'Friedrichstraße 10',
  postal_code: '10117',
  city: 'Berlin',
  country: 'DE',
  vat_id: 'DE123456789',
  tax_number: '30/123/45678',
  email: 'rechnung@immobilien-beispiel.de',
  phone: '+49 30 1234567',
  contact: 'Petra Beispiel',
};

export const commission: InvoiceDocumentData = {
  profile: 'xrechnung',
  type_code: '380',
  number: '2026-000001',
  issue_date: '2026-02-10',
  service_date: '2026-02-01',
  due_date: '2026-02-24',
  notes: [],
  currency: 'EUR',
  issuer: agency,
  recipient: {
    name: 'Erika Mustermann',
    street: 'Musterweg 1',
    postal_code: '80331',
    city: 'München',
    country: 'DE',
    email: 'erika@example.org',
  },
  buyer_reference: '2026-000001',
  payment: { iban: 'DE02 1203 0000 0000 2020 51', bic: 'BYLADEM1001', account_holder: 'Immobilien Beispiel GmbH' },
  lines: [
    {
      position: 1,
      description: 'Maklerprovision Verkauf Musterstraße 1, 10115 Berlin (Käuferanteil 3,57 %)',
      quantity: '1',
      unit_code: 'C62',
      unit_price_cents: '1071000',
      net_cents: 1_071_000,
    },
  ],
  vat_category: 'S',
  vat_rate_bp: 1900,
  net_cents: 1_071_000,
  vat_cents: 203_490,
  gross_cents: 1_274_490,
};

export const condition = 'Die Provision ist erst fällig, nachdem der Verkäufer seinen Anteil gezahlt hat (§ 656d BGB).';
export const deferred: InvoiceDocumentData = {
  ...commission,
  number: '2026-000002',
  buyer_reference: '2026-000002',
  due_date: null,
  notes: [condition],
};
