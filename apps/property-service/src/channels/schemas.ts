import { Type, type Static } from '@sinclair/typebox';
import { Named, Nullable, PageQuerySchema, PatchSchemaOf, StringEnum } from '@platform/http';
import { PortalSettingsFieldsSchema, PortalSettingsInputSchema, PortalSettingsViewSchema } from './portal-schemas.js';

export const CHANNEL_TYPES = ['website', 'openimmo', 'portal'] as const;
export type ChannelType = (typeof CHANNEL_TYPES)[number];

const Name = Type.String({
  minLength: 1,
  maxLength: 100,
  description: 'Unique within the account, e.g. `Website` or `ImmoScout24 (OpenImmo)`.',
});

const CONTACT_DESCRIPTION =
  "The agency's business contact a portal shows with each listing (OpenImmo `kontaktperson`): the agency or the responsible agent " +
  'in a business role — never a prospect. `name` and at least one of `email` and `phone` (a portal needs a way to reach the agency); ' +
  'an `openimmo` channel needs one before listings can be published on it.';
/** Digits, spaces, `( ) / -`, an optional leading `+`, and at least three digits. */
const PHONE_PATTERN = '^\\+?(?=(?:[^0-9]*[0-9]){3})[0-9 ()/-]+$';

export const AgencyContactSchema = Type.Object(
  {
    name: Type.String({
      minLength: 1,
      maxLength: 200,
      pattern: '\\S',
      description: 'The agency or the responsible agent, e.g. `Vermietungsteam Mitte` or `Anna Berger`.',
    }),
    company: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 200,
        description: "The agency's company name, e.g. `Berger Immobilien GmbH`.",
      }),
    ),
    email: Type.Optional(
      Type.String({
        format: 'email',
        maxLength: 200,
        description: 'A business address, e.g. `vermietung@berger-immobilien.de`.',
      }),
    ),
    phone: Type.Optional(
      Type.String({
        maxLength: 40,
        pattern: PHONE_PATTERN,
        description: 'A business number: digits, spaces, `( ) / -` and a leading `+`, e.g. `+49 30 1234567`.',
      }),
    ),
  },
  {
    additionalProperties: false,
    // At least one way to reach the agency: both missing gives the details `contact.email` and `contact.phone`, reason `missing`.
    anyOf: [
      { required: ['email'], properties: { email: { type: 'string' } } },
      { required: ['phone'], properties: { phone: { type: 'string' } } },
    ],
    description: CONTACT_DESCRIPTION,
  },
);
export type AgencyContactInput = Static<typeof AgencyContactSchema>;

export const ChannelInputSchema = Named(
  'ChannelInput',
  Type.Object(
    {
      type: StringEnum(CHANNEL_TYPES, {
        description:
          "`website`: a JSON feed of the live listings for the account's own site; `openimmo`: an OpenImmo 1.2.7 XML feed that portals pull; " +
          "`portal`: a portal's import account the listings are pushed to as OpenImmo ZIP files over SFTP or FTP(S) (with `portal`).",
      }),
      name: Name,
      contact: Type.Optional(AgencyContactSchema),
      portal: Type.Optional(PortalSettingsInputSchema),
    },
    { additionalProperties: false },
  ),
);
export type ChannelInput = Static<typeof ChannelInputSchema>;

/** What a channel's owner may change (its type never changes); a PATCH's merged result is validated against it. */
export const ChannelFieldsSchema = Type.Object(
  { name: Name, contact: Type.Optional(AgencyContactSchema), portal: Type.Optional(PortalSettingsFieldsSchema) },
  {
    additionalProperties: false,
    description:
      'A JSON merge patch of the channel: `contact` members merge into the current contact (`null` clears one), `contact: null` removes the contact; ' +
      "`portal` members merge into a portal channel's import account (a new `secret` replaces the stored one).",
  },
);
export type ChannelFields = Static<typeof ChannelFieldsSchema>;

export const ChannelPatchSchema = Named('ChannelUpdate', PatchSchemaOf(ChannelFieldsSchema));
export type ChannelPatch = Static<typeof ChannelPatchSchema>;

export const ChannelSchema = Named(
  'Channel',
  Type.Object(
    {
      id: Type.String(),
      type: StringEnum(CHANNEL_TYPES),
      name: Type.String(),
      feed_url: Type.String({
        description:
          'The public feed of the listings live on this channel, read without a key; its token is the secret: share it only with the consumer.',
      }),
      contact: Nullable(
        Type.Object(
          {
            name: Type.String(),
            company: Nullable(Type.String()),
            email: Nullable(Type.String()),
            phone: Nullable(Type.String()),
          },
          { description: CONTACT_DESCRIPTION },
        ),
      ),
      portal: Nullable(PortalSettingsViewSchema),
      live_listings: Type.Integer({ description: 'How many listings are live on the channel.' }),
      created_at: Type.String({ format: 'date-time' }),
      updated_at: Type.String({ format: 'date-time' }),
    },
    { description: 'A publication channel of the account.' },
  ),
);
export type Channel = Static<typeof ChannelSchema>;

export const ChannelParamsSchema = Type.Object({ channelId: Type.String() });
export const ChannelListQuerySchema = PageQuerySchema;

/** The agency's business contact a portal shows with the channel's listings (never a prospect's data). */
export interface AgencyContact {
  /** The agency or the responsible agent in a business role, e.g. "Vermietungsteam Mitte". */
  name: string;
  company: string | null;
  email: string | null;
  phone: string | null;
}
