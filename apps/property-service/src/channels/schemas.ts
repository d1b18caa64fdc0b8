import { Type, type Static } from '@sinclair/typebox';
import { PageQuerySchema, StringEnum } from '@platform/http';

export const CHANNEL_TYPES = ['website', 'openimmo'] as const;
export type ChannelType = (typeof CHANNEL_TYPES)[number];

const Name = Type.String({ minLength: 1, maxLength: 100, description: 'Unique within the account, e.g. `Website` or `ImmoScout24 (OpenImmo)`.' });

export const ChannelInputSchema = Type.Object(
  {
    type: StringEnum(CHANNEL_TYPES, {
      description: '`website`: a JSON feed of the live listings for the account\'s own site; `openimmo`: an OpenImmo 1.2.7 XML feed that portals pull.',
    }),
    name: Name,
  },
  { additionalProperties: false },
);
export type ChannelInput = Static<typeof ChannelInputSchema>;

export const ChannelPatchSchema = Type.Object({ name: Type.Optional(Name) }, { additionalProperties: false });
export type ChannelPatch = Static<typeof ChannelPatchSchema>;

export const ChannelSchema = Type.Object(
  {
    id: Type.String(),
    type: StringEnum(CHANNEL_TYPES),
    name: Type.String(),
    feed_url: Type.String({
      description: 'The public feed of the listings live on this channel, read without a key; its token is the secret: share it only with the consumer.',
    }),
    live_listings: Type.Integer({ description: 'How many listings are live on the channel.' }),
    created_at: Type.String({ format: 'date-time' }),
    updated_at: Type.String({ format: 'date-time' }),
  },
  { description: 'A publication channel of the account.' },
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
