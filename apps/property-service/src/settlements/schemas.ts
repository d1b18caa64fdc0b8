import { Type, type Static } from '@sinclair/typebox';
import { Named, Nullable, PageQuerySchema, StringEnum } from '@platform/http';

const PARTIES = ['seller', 'buyer', 'landlord', 'tenant'] as const;
const Cents = (description: string) => Type.Integer({ description });

export const SettlementLineSchema = Type.Object(
  {
    position: Type.Integer({ description: '1-based: seller before buyer, landlord before tenant.' }),
    party: StringEnum(PARTIES, { description: 'The paying party (no names).' }),
    base_cents: Cents('The purchase price (sale) or the monthly cold rent (letting), in cents.'),
    percent_milli: Nullable(
      Type.Integer({ description: 'Sales: thousandths of a percent (3.57 % = 3570); lettings: `null`.' }),
    ),
    months_hundredths: Nullable(
      Type.Integer({ description: 'Lettings: hundredths of a monthly cold rent (2 months = 200); sales: `null`.' }),
    ),
    net_cents: Cents('base × rate, rounded once, half away from zero.'),
    vat_rate_basis_points: Type.Integer({
      description: 'The VAT rate on the transaction date in hundredths of a percent (19 % = 1900).',
    }),
    vat_cents: Cents('net × VAT rate, rounded once, half away from zero.'),
    gross_cents: Cents('net + VAT.'),
    due_after_party: Nullable(
      StringEnum(PARTIES, { description: '§656d BGB: this party pays only after the named party has paid.' }),
    ),
    invoice_id: Nullable(
      Type.String({
        description:
          "The party's invoice (`GET /v1/invoices/{id}`); `null` when no recipients were given with `mark-sold` / `mark-rented`.",
      }),
    ),
    credit_note_id: Nullable(
      Type.String({
        description:
          "The credit note that corrected the party's invoice in full (`POST /v1/invoices/{id}/credit-note`); `null` while it stands.",
      }),
    ),
  },
  { additionalProperties: false },
);

export const SettlementSchema = Named(
  'Settlement',
  Type.Object(
    {
      id: Type.String(),
      property_id: Type.String(),
      kind: StringEnum(['sale', 'letting']),
      rules_version: Type.String({ description: 'The commission rules that made it, e.g. `commission-de/2`.' }),
      regime: StringEnum(['bgb_656c', 'bgb_656d', 'free_sale', 'wovermittg', 'free_letting'], {
        description:
          'The rule that applied: `bgb_656c` (engaged by both, equal shares), `bgb_656d` (engaged by one side, the other pays at most as much and after it), ' +
          '`free_sale` (no consumer buyer, or not an apartment or house), `wovermittg` (residential letting), `free_letting` (other lettings).',
      }),
      transaction_date: Type.String({
        format: 'date',
        description: 'The day of the sale or letting; picks the VAT rate.',
      }),
      net_cents: Cents("Sum of the lines' net amounts."),
      vat_cents: Cents("Sum of the lines' VAT."),
      gross_cents: Cents("Sum of the lines' gross amounts."),
      lines: Type.Array(SettlementLineSchema, { description: 'One line per paying party.' }),
      created_at: Type.String({ format: 'date-time' }),
    },
    {
      description:
        'The commission of a sale or letting, settled when the property was marked sold or rented; amounts in integer cents.',
    },
  ),
);
export type Settlement = Static<typeof SettlementSchema>;

export const SettlementParamsSchema = Type.Object({ settlementId: Type.String() });

export const SettlementListQuerySchema = Type.Composite([
  PageQuerySchema,
  Type.Object({ property_id: Type.Optional(Type.String({ description: 'Only the settlements of this property.' })) }),
]);
export type SettlementListQuery = Static<typeof SettlementListQuerySchema>;
