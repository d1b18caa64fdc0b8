import { Type, type Static } from '@sinclair/typebox';
import { Named, Nullable, PageQuerySchema, StringEnum } from '@platform/http';

const STATES = ['pending', 'transferred', 'failed'] as const;
const Aktion = StringEnum(['CHANGE', 'DELETE'] as const, {
  description: 'OpenImmo `aktionart`: `CHANGE` the portal shows the listing, `DELETE` it takes it off.',
});

export const PortalTransferSchema = Named(
  'PortalTransfer',
  Type.Object(
    {
      id: Type.String(),
      channel_id: Type.String(),
      umfang: StringEnum(['VOLL', 'TEIL'] as const, {
        description: '`VOLL`: every live listing of the channel; `TEIL`: only the changes.',
      }),
      state: StringEnum(STATES, {
        description:
          '`pending` while it is sent, `transferred` once the file is complete at the portal, `failed` with `reason`.',
      }),
      file_name: Type.String({ description: "The ZIP file's name on the portal's import account." }),
      objects: Type.Integer({ description: 'How many listings (CHANGE and DELETE) the file holds.' }),
      bytes: Nullable(Type.Integer({ description: "The file's size, once transferred." })),
      reason: Nullable(Type.String({ description: 'Why it failed.' })),
      attempt: Type.Integer({ description: 'The attempt in a row this transfer was (1 after a success).' }),
      started_at: Type.String({ format: 'date-time' }),
      finished_at: Nullable(Type.String({ format: 'date-time' })),
    },
    { additionalProperties: false, description: 'One ZIP file sent (or tried) to the portal of a `portal` channel.' },
  ),
);
export type PortalTransfer = Static<typeof PortalTransferSchema>;

export const PortalListingStateSchema = Type.Object(
  {
    listing_id: Type.String({ description: 'The listing the portal shows (or last showed) for the property.' }),
    property_id: Type.String({
      description: "The portal's object id (OpenImmo `objektnr_extern` and `openimmo_obid`).",
    }),
    aktion: Aktion,
    state: StringEnum(STATES, {
      description:
        '`pending`: not at the portal yet (waiting for the next transfer or a retry); `transferred`: the portal has it; `failed`: given up, see `reason`.',
    }),
    reason: Nullable(Type.String()),
    transferred_at: Nullable(
      Type.String({ format: 'date-time', description: 'When a transfer last brought it to the portal.' }),
    ),
    updated_at: Type.String({ format: 'date-time' }),
  },
  { additionalProperties: false },
);

export const PortalStatusSchema = Named(
  'PortalStatus',
  Type.Object(
    {
      channel_id: Type.String(),
      full_transfer_due: Type.Boolean({ description: 'The next transfer holds every live listing (`umfang="VOLL"`).' }),
      failures_in_a_row: Type.Integer(),
      next_attempt_at: Nullable(Type.String({ format: 'date-time', description: 'When the next transfer may run.' })),
      halted_reason: Nullable(
        Type.String({
          description:
            "Set when the portal refused the account or the retries are used up: no transfer until the channel's `portal` changes or a retransfer is asked for.",
        }),
      ),
      listings: Type.Array(PortalListingStateSchema, {
        description: 'What the portal should hold, per property, and whether it has it.',
      }),
    },
    { additionalProperties: false, description: "A portal channel's transfers: where they stand, per listing." },
  ),
);
export type PortalStatus = Static<typeof PortalStatusSchema>;

export const TransferListQuerySchema = PageQuerySchema;
