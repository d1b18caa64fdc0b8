import { Type, type Static } from '@sinclair/typebox';
import { Named, Nullable, PageQuerySchema, StringEnum } from '@platform/http';
import { CHARGEBACK_UNITS } from '../agents/index.js';

/** `YYYY-MM`: a calendar month in the account's time zone. */
export const PERIOD_PATTERN = '^[0-9]{4}-(0[1-9]|1[0-2])$';
/** How every line's amount is computed (the one place money is rounded). */
export const LINE_METHOD = 'quantity × rate, rounded half up once per line';

const Period = (description: string) => Type.String({ pattern: PERIOD_PATTERN, description });
const Unit = StringEnum(CHARGEBACK_UNITS);
/** The document lifecycle of an internal invoice's PDF (DocumentStatus without publication). */
export const INTERNAL_INVOICE_STATUSES = ['generating', 'completed', 'failed'] as const;

const InvoiceRef = Nullable(
  Type.Object(
    {
      id: Type.String(),
      number: Type.String({ description: 'Gapless per account and year, series `chargeback`: `2026-000001`.' }),
    },
    { description: 'The internal invoice of the settlement.' },
  ),
);

const settlementFields = {
  id: Type.String(),
  period: Period('The settled period, `YYYY-MM` in the account’s time zone.'),
  team: Type.String({ description: 'The consuming team.' }),
  net_cents: Type.Integer({ description: 'Sum of the lines’ amounts.' }),
  internal_invoice: InvoiceRef,
  created_at: Type.String({ format: 'date-time' }),
};

export const ChargebackSettlementSummarySchema = Named(
  'ChargebackSettlementSummary',
  Type.Object(settlementFields, {
    description: 'What one consuming team owes for one period (its lines: `GET /v1/chargebacks/settlements/{id}`).',
  }),
);
export type ChargebackSettlementSummary = Static<typeof ChargebackSettlementSummarySchema>;

export const ChargebackLineSchema = Type.Object(
  {
    position: Type.Integer({ minimum: 1, description: 'Ordered by agent, month of use and the rate’s start.' }),
    agent_id: Type.String(),
    usage_period: Period('The month the usage occurred in; earlier than the settlement’s period for late usage.'),
    late: Type.Boolean({
      description:
        'Usage of a month before the settled period: reported after that month was settled, or of a month no run settled.',
    }),
    records: Type.Integer({ description: 'How many usage records the line sums.' }),
    quantity: Type.String({ description: 'Sum of the records’ quantities in `unit` (decimal text).' }),
    unit: Unit,
    rate: Type.Object(
      {
        amount_cents: Type.Integer(),
        unit: Unit,
        valid_from: Type.String({
          format: 'date-time',
          description:
            'When this rate of the agent took effect (its first rate also prices usage reported for a time before).',
        }),
      },
      { description: 'The agent’s rate valid when the usage occurred.' },
    ),
    priced: Type.Boolean({
      description:
        '`false` when the records’ unit is not the rate’s unit (the unit changed and the records were received after the change): amount 0, not priced.',
    }),
    amount_cents: Type.Integer({
      description: 'quantity × rate.amount_cents, rounded half up once (0 when not priced).',
    }),
  },
  { description: 'A team’s usage of one agent at one rate in one month of use.' },
);

export const ChargebackSettlementSchema = Named(
  'ChargebackSettlement',
  Type.Object(
    {
      ...settlementFields,
      late_cents: Type.Integer({
        description: 'The part of `net_cents` for usage of months before the period (lines with `late`).',
      }),
      method: Type.String({ description: 'How each line’s amount is computed.' }),
      lines: Type.Array(ChargebackLineSchema),
    },
    { description: 'A settlement with its lines.' },
  ),
);
export type ChargebackSettlement = Static<typeof ChargebackSettlementSchema>;

export const InternalInvoiceSchema = Named(
  'InternalInvoice',
  Type.Object(
    {
      id: Type.String(),
      number: Type.String({
        description: 'Gapless per account and year of issue, series `chargeback`: `2026-000001`.',
      }),
      team: Type.String({ description: 'The consuming team (the recipient).' }),
      period: Period('The settled period.'),
      issue_date: Type.String({ format: 'date', description: 'The run’s date in the account’s time zone.' }),
      net_cents: Type.Integer({ description: 'The settlement’s net amount; no VAT (within one organisation).' }),
      settlement_id: Type.String(),
      status: StringEnum(INTERNAL_INVOICE_STATUSES, {
        description: '`generating` → `completed` (the PDF is ready) or `failed` (see `failure_reason`).',
      }),
      pdf_url: Type.String({ description: 'Where the PDF is downloaded once `completed`.' }),
      pdf: Nullable(
        Type.Object({
          size: Type.Integer({ description: 'Bytes.' }),
          sha256: Type.String({ description: 'The download ETag.' }),
        }),
      ),
      failure_reason: Nullable(Type.String()),
      created_at: Type.String({ format: 'date-time' }),
      completed_at: Nullable(Type.String({ format: 'date-time' })),
    },
    { description: 'The internal invoice of a chargeback settlement (PDF rendered in the background).' },
  ),
);
export type InternalInvoice = Static<typeof InternalInvoiceSchema>;

export const ChargebackListQuerySchema = Type.Composite([
  PageQuerySchema,
  Type.Object({
    period: Type.Optional(Period('Only this period.')),
    team: Type.Optional(
      Type.String({ minLength: 1, maxLength: 120, description: 'Only this consuming team (exact name).' }),
    ),
  }),
]);
export type ChargebackListQuery = Static<typeof ChargebackListQuerySchema>;

export const SettlementParamsSchema = Type.Object({ settlementId: Type.String() });
export const InternalInvoiceParamsSchema = Type.Object({ invoiceId: Type.String() });
