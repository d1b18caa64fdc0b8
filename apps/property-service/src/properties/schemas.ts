import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { Named, Nullable, PageQuerySchema, type Patch, PatchSchemaOf, StringEnum, withReadOnly } from '@platform/http';
import { LettingRecipientsSchema, SaleRecipientsSchema } from '../invoices/index.js';

export const PROPERTY_TYPES = ['apartment', 'house', 'land', 'commercial', 'parking'] as const;
export const PROPERTY_STATUSES = ['draft', 'active', 'reserved', 'sold', 'rented', 'archived'] as const;
export const ENGAGED_BY = ['seller', 'buyer', 'both'] as const;
export const EFFICIENCY_CLASSES = ['A+', 'A', 'B', 'C', 'D', 'E', 'F', 'G', 'H'] as const;

const Euros = (description: string) => Type.Integer({ minimum: 0, maximum: 2_147_483_647, description });
const Months = (description: string) => Type.Number({ minimum: 0, maximum: 12, multipleOf: 0.01, description });
const Area = (description: string) => Type.Number({ minimum: 0, maximum: 10_000_000, description });

export const AddressSchema = Named(
  'Address',
  Type.Object(
    {
      street: Type.Optional(
        Type.String({
          minLength: 1,
          maxLength: 200,
          description:
            'The street with its house number as one string ("Hauptstraße 5", "12 Baker Street", "Hauptstraße 5, Hinterhaus"), or its name alone with `house_number`. ' +
            'The number is split off and published only at `exact` precision; an addition after it ("Hinterhaus", "2. OG links") never.',
        }),
      ),
      house_number: Type.Optional(
        Type.String({
          minLength: 1,
          maxLength: 40,
          pattern: '^[0-9A-Za-z][0-9A-Za-z /.-]*$',
          description:
            'The house number ("5", "12a", "3-5") when it is given apart from `street`; without it the number is split off `street`. A change of `street` alone splits it again.',
        }),
      ),
      postal_code: Type.String({ pattern: '^[0-9]{5}$', description: 'Exactly five digits.' }),
      city: Type.String({ minLength: 1, maxLength: 100 }),
      country: Type.Optional(
        Type.String({
          pattern: '^[A-Z]{2}$',
          default: 'US',
          description:
            "ISO 3166-1 alpha-2; default `US`, or the account's default country when the operator set one (a Berlin agency: `DE`).",
        }),
      ),
      location_precision: Type.Optional(
        StringEnum(['exact', 'street', 'neighborhood'], {
          default: 'street',
          description: 'How precisely the address appears in the listing.',
        }),
      ),
    },
    { additionalProperties: false },
  ),
);

export const EnergyCertificateSchema = Named(
  'EnergyCertificate',
  Type.Object(
    {
      type: Type.Optional(StringEnum(['consumption', 'demand'])),
      final_energy_demand_kwh: Type.Optional(Type.Number({ minimum: 0, maximum: 100_000 })),
      energy_source: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
      system_year: Type.Optional(Type.Integer({ minimum: 1800, maximum: 2100 })),
      efficiency_class: Type.Optional(StringEnum(EFFICIENCY_CLASSES)),
      valid_until: Type.Optional(Type.String({ format: 'date' })),
      exemption: Type.Optional(
        StringEnum(['heritage_protection', 'small_building'], {
          description: 'Set when no certificate is legally required.',
        }),
      ),
    },
    { additionalProperties: false, description: 'Figures needed to publish a listing; all optional.' },
  ),
);

export const CommissionSchema = Named(
  'Commission',
  Type.Object(
    {
      buyer_percent: Type.Optional(Type.Number({ minimum: 0, maximum: 100 })),
      seller_percent: Type.Optional(Type.Number({ minimum: 0, maximum: 100 })),
      note: Type.Optional(Type.String({ maxLength: 1000 })),
      engaged_by: Type.Optional(
        StringEnum(ENGAGED_BY, {
          description:
            'Who engaged the broker: `seller`, `buyer` or `both`. For a letting `seller` stands for the landlord and `buyer` for the tenant. ' +
            'Decides the German rules (§656c/§656d BGB for apartment and house sales to a consumer, §2 Abs. 1a WoVermittG for residential lettings).',
        }),
      ),
      buyer_is_consumer: Type.Optional(
        Type.Boolean({
          default: true,
          description:
            'Whether the buyer is a consumer (default `true`): the consumer protection of §656a–d BGB applies.',
        }),
      ),
      tenant_months: Type.Optional(
        Months('Letting commission the tenant pays, in net monthly cold rents (VAT on top), e.g. `2` or `1.5`.'),
      ),
      landlord_months: Type.Optional(
        Months('Letting commission the landlord pays, in net monthly cold rents (VAT on top).'),
      ),
    },
    {
      additionalProperties: false,
      description:
        'Commission terms. Sales use `seller_percent` / `buyer_percent` of the purchase price, lettings `landlord_months` / `tenant_months` of the monthly cold rent. ' +
        'Terms that break a rule whoever engaged the broker are refused when set (422 `not_allowed` on the field, the message names the rule): they are checked as a sale when the property ' +
        'has a purchase price, as a letting when it has a cold rent, as both when it has both or neither. Equal sale shares need no `engaged_by`; terms lawful for one engaging side only ' +
        '(unequal shares, a tenant share) are stored without it, and publishing a listing and marking the property sold or rented answer 422 `missing` on `commission.engaged_by` until it is given.',
    },
  ),
);

const inputFields = {
  type: StringEnum(PROPERTY_TYPES),
  title: Type.String({ minLength: 1, maxLength: 120 }),
  description: Type.Optional(Type.String({ maxLength: 20_000 })),
  address: AddressSchema,
  living_area_sqm: Type.Optional(Area('Living area in square metres.')),
  lot_size_sqm: Type.Optional(Area('Lot size in square metres.')),
  rooms: Type.Optional(Type.Number({ minimum: 0, maximum: 1000 })),
  year_built: Type.Optional(Type.Integer({ minimum: 1000, maximum: 2100 })),
  floor: Type.Optional(Type.Integer({ minimum: -10, maximum: 300 })),
  purchase_price_eur: Type.Optional(Euros('Purchase price in whole euros.')),
  cold_rent_eur: Type.Optional(Euros('Monthly rent without heating, in whole euros.')),
  service_charges_eur: Type.Optional(Euros('Monthly service charges in whole euros.')),
  available_from: Type.Optional(Type.String({ format: 'date' })),
  energy_certificate: Type.Optional(EnergyCertificateSchema),
  commission: Type.Optional(CommissionSchema),
};

export const READ_ONLY_FIELDS = ['id', 'status', 'transaction', 'media_count', 'created_at', 'updated_at'] as const;

export const PropertyInputSchema = Named(
  'PropertyInput',
  withReadOnly(Type.Object(inputFields, { additionalProperties: false }), READ_ONLY_FIELDS),
);
export type PropertyInput = Static<typeof PropertyInputSchema>;

/**
 * The PATCH body: every field optional; optional fields may be `null` (cleared); required ones
 * may be changed but not cleared; nested objects merge field by field.
 */
export const PropertyPatchSchema = Named(
  'PropertyUpdate',
  PatchSchemaOf(Type.Object(inputFields, { additionalProperties: false }), READ_ONLY_FIELDS),
);
export type PropertyPatch = Patch<PropertyInput>;

const nullable = <T extends TSchema>(schema: T) => Nullable(schema);

export const PropertySchema = Named(
  'Property',
  Type.Object(
    {
      id: Type.String(),
      status: StringEnum(PROPERTY_STATUSES),
      type: StringEnum(PROPERTY_TYPES),
      title: Type.String(),
      description: nullable(Type.String()),
      address: Type.Object({
        street: nullable(Type.String()),
        house_number: nullable(
          Type.String({
            description: 'The house number, given apart or split off `street`; null when the street has none.',
          }),
        ),
        postal_code: Type.String(),
        city: Type.String(),
        country: Type.String(),
        location_precision: StringEnum(['exact', 'street', 'neighborhood']),
      }),
      living_area_sqm: nullable(Type.Number()),
      lot_size_sqm: nullable(Type.Number()),
      rooms: nullable(Type.Number()),
      year_built: nullable(Type.Integer()),
      floor: nullable(Type.Integer()),
      purchase_price_eur: nullable(Type.Integer()),
      cold_rent_eur: nullable(Type.Integer()),
      service_charges_eur: nullable(Type.Integer()),
      available_from: nullable(Type.String({ format: 'date' })),
      energy_certificate: nullable(
        Type.Object({
          type: nullable(StringEnum(['consumption', 'demand'])),
          final_energy_demand_kwh: nullable(Type.Number()),
          energy_source: nullable(Type.String()),
          system_year: nullable(Type.Integer()),
          efficiency_class: nullable(StringEnum(EFFICIENCY_CLASSES)),
          valid_until: nullable(Type.String({ format: 'date' })),
          exemption: nullable(StringEnum(['heritage_protection', 'small_building'])),
        }),
      ),
      commission: nullable(
        Type.Object({
          buyer_percent: nullable(Type.Number()),
          seller_percent: nullable(Type.Number()),
          note: nullable(Type.String()),
          engaged_by: nullable(
            StringEnum(ENGAGED_BY, {
              description: 'Who engaged the broker; in a letting `seller` = landlord, `buyer` = tenant.',
            }),
          ),
          buyer_is_consumer: Type.Boolean({ description: '`true` unless set to `false`.' }),
          tenant_months: nullable(Type.Number()),
          landlord_months: nullable(Type.Number()),
        }),
      ),
      transaction: nullable(
        Type.Object(
          {
            price_eur: Type.Integer({ description: 'The sale price, or the monthly cold rent, in whole euros.' }),
            date: Type.String({ format: 'date' }),
            assumed: Type.Boolean({
              description:
                '`true` when none was given when marking it sold or rented: the asking price and that day were taken.',
            }),
          },
          {
            description:
              'The recorded sale or letting (used as a comparable in valuations); `null` before one, or when neither a price nor an asking price was known.',
          },
        ),
      ),
      media_count: Type.Integer(),
      created_at: Type.String({ format: 'date-time' }),
      updated_at: Type.String({ format: 'date-time' }),
    },
    { description: 'A property record.' },
  ),
);
export type Property = Static<typeof PropertySchema>;

export const PropertyParamsSchema = Type.Object({ propertyId: Type.String() });

export const PropertyListQuerySchema = Type.Composite([
  PageQuerySchema,
  Type.Object({
    status: Type.Optional(StringEnum(PROPERTY_STATUSES)),
    type: Type.Optional(StringEnum(PROPERTY_TYPES)),
  }),
]);

const TransactionDate = Type.String({
  format: 'date',
  description: 'The day of the sale or letting (YYYY-MM-DD), not in the future.',
});
/** `mark-sold`: the final price and day; no body, `{}` or `null` take the asking price and today (marked as assumed). */
export const MarkSoldBodySchema = Named(
  'PropertyMarkSold',
  Nullable(
    Type.Object(
      {
        price_eur: Type.Optional(Euros('The final sale price in whole euros.')),
        date: Type.Optional(TransactionDate),
        invoice_recipients: SaleRecipientsSchema,
      },
      {
        additionalProperties: false,
        description:
          '`price_eur` and `date` together, or neither (no body, `{}` or `null`): then the asking price (`purchase_price_eur`) and today are recorded, marked as assumed. ' +
          '`invoice_recipients`: see there.',
      },
    ),
  ),
);
export type MarkSoldBody = Static<typeof MarkSoldBodySchema>;

/** `mark-rented`: the agreed monthly cold rent and day; none given: the asking cold rent and today (assumed). */
export const MarkRentedBodySchema = Named(
  'PropertyMarkRented',
  Nullable(
    Type.Object(
      {
        cold_rent_eur: Type.Optional(Euros('The agreed monthly cold rent in whole euros.')),
        date: Type.Optional(TransactionDate),
        invoice_recipients: LettingRecipientsSchema,
      },
      {
        additionalProperties: false,
        description:
          '`cold_rent_eur` and `date` together, or neither (no body, `{}` or `null`): then the asking `cold_rent_eur` and today are recorded, marked as assumed. ' +
          '`invoice_recipients`: see there.',
      },
    ),
  ),
);
export type MarkRentedBody = Static<typeof MarkRentedBodySchema>;
