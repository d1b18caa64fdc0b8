import { Type, type Static } from '@sinclair/typebox';
import { Named, Nullable, PageQuerySchema, StringEnum } from '@platform/http';
import { PROPERTY_TYPES } from '../properties/index.js';

// The response schemas mirror the method's output types (method.ts) field by field.

const Marketing = StringEnum(['sale', 'rent'], {
  description: '`sale`: prices are sale prices; `rent`: monthly cold rents.',
});
const DateOnly = Type.String({ format: 'date' });

export const ValuationQuerySchema = Type.Object({
  marketing: Type.Optional(
    StringEnum(['sale', 'rent'], {
      description:
        'Value as a sale or a letting. Default: `rent` when the property has a cold rent and no purchase price, otherwise `sale`.',
    }),
  ),
});
export type ValuationQuery = Static<typeof ValuationQuerySchema>;

export const ComparablesQuerySchema = Type.Composite([PageQuerySchema, ValuationQuerySchema]);
export type ComparablesQuery = Static<typeof ComparablesQuerySchema>;

export const ValuationParamsSchema = Type.Object({ propertyId: Type.String() });

export const AdjustmentSchema = Type.Object({
  kind: StringEnum(['area', 'age']),
  factor: Type.Number({ description: 'Multiplies the price per m², rounded half up to 4 decimals.' }),
  explanation: Type.String(),
});

export const ValuedComparableSchema = Named(
  'ValuedComparable',
  Type.Object(
    {
      id: Type.String({ description: 'The property id (`own`) or the imported market transaction id (`imported`).' }),
      source: StringEnum(['own', 'imported'], {
        description: "`own`: a sale or letting of the account's own property; `imported`: imported market data.",
      }),
      postal_code: Type.String(),
      date: DateOnly,
      living_area_sqm: Type.Number(),
      year_built: Nullable(Type.Integer()),
      raw_price_eur: Type.Integer({ description: 'The sale price, or the monthly cold rent, in whole euros.' }),
      raw_price_per_sqm: Type.Number({
        description: 'Rounded half up to cents for display; the statistics use the unrounded value.',
      }),
      adjustments: Type.Array(AdjustmentSchema),
      adjusted_price_per_sqm: Nullable(
        Type.Number({ description: 'The raw price per m² times the adjustment factors, rounded half up to cents.' }),
      ),
      dropped: Nullable(
        StringEnum(['outlier'], {
          description:
            '`outlier`: beyond Q1 − 1.5 × IQR or Q3 + 1.5 × IQR of the adjusted prices per m², not used; `null`: used.',
        }),
      ),
      dropped_reason: Nullable(Type.String({ description: 'Why it was dropped, with the fences.' })),
    },
    {
      description:
        'A comparable inside the selection: its raw price, each adjustment and whether it was dropped as an outlier (and why).',
    },
  ),
);

const count = (description: string) => Type.Integer({ minimum: 0, description });

export const ExcludedSchema = Type.Object(
  {
    count: count('How many candidates are outside the selection (the sum of `by_reason`).'),
    by_reason: Type.Object(
      {
        postal_code: count('Postal code not starting with `selection.postal_code_prefix`.'),
        date: count('Dated outside the last 36 months up to `subject.as_of`.'),
        no_area_or_price: count('No living area or no price.'),
        living_area: count("Living area outside ±30 % of the subject's."),
        year_built_unknown: count('No year built (only when the subject has one).'),
        year_built: count("Year built outside ±25 years of the subject's."),
      },
      { description: 'Each counted under the first criterion it fails, in this order.' },
    ),
  },
  {
    description:
      'The candidates of the same type and marketing that were considered but are outside the selection at the postal-code level used: counted, not listed. ' +
      'Candidates are read only under the prefix used and within the 36 months, so through the API `postal_code` and `date` are 0.',
  },
);

export const ValuationSchema = Named(
  'Valuation',
  Type.Object(
    {
      property_id: Type.String(),
      subject: Type.Object(
        {
          type: StringEnum(PROPERTY_TYPES),
          marketing: Marketing,
          postal_code: Type.String(),
          living_area_sqm: Nullable(Type.Number()),
          year_built: Nullable(Type.Integer()),
          as_of: Type.String({
            format: 'date',
            description: 'The day valued for: today (UTC); the 36 months count back from it.',
          }),
        },
        { description: 'What was valued, as taken from the property.' },
      ),
      method_version: Type.String({ description: 'The version of the comparison method, e.g. `comparison/1`.' }),
      estimate_eur: Nullable(
        Type.Integer({
          description:
            'Median adjusted price per m² × living area, rounded half up; `null` with fewer than 5 usable comparables.',
        }),
      ),
      range_eur: Nullable(
        Type.Object(
          { low: Type.Integer(), high: Type.Integer() },
          { description: 'Q1 and Q3 of the adjusted prices per m² × living area.' },
        ),
      ),
      price_per_sqm_eur: Nullable(Type.Number()),
      confidence: Nullable(StringEnum(['high', 'medium', 'low'])),
      reason: Nullable(Type.String({ description: 'Why there is no estimate.' })),
      selection: Type.Object({ postal_code_prefix: Type.String(), widened: Type.Boolean(), reason: Type.String() }),
      statistics: Nullable(
        Type.Object({
          usable_count: Type.Integer(),
          q1_per_sqm: Type.Number(),
          median_per_sqm: Type.Number(),
          q3_per_sqm: Type.Number(),
          spread: Type.Number({ description: '(Q3 − Q1) / median, rounded half up to 4 decimals.' }),
        }),
      ),
      comparables: Type.Array(ValuedComparableSchema, {
        description:
          'The comparables inside the selection (usable, or dropped as outliers), newest first, then by id; the statistics are computed from these.',
      }),
      excluded: ExcludedSchema,
    },
    {
      description:
        'A valuation by the comparison approach; every figure can be recomputed from the comparables listed.',
    },
  ),
);
export type ValuationView = Static<typeof ValuationSchema>;
