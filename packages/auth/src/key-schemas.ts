import { Type } from '@sinclair/typebox';
import { Named, StringEnum } from '@platform/http';
import type { KeyOwner } from './key-owner.js';
import { MAX_ROLL_EXPIRY_HOURS } from './key-roll.js';

/** The longest expiry a key may be created with: one year. */
export const MAX_CREATE_EXPIRY_HOURS = 8_760;

const DateTime = Type.String({ format: 'date-time' });
const NullableDateTime = (description: string) => Type.Union([DateTime, Type.Null()], { description });

/** The key resources of the self-service routes, for one service's scopes. */
export function keySchemas(service: KeyOwner) {
  const ScopeSchema = StringEnum(service.scopes);
  const ApiKeySchema = Named(
    'ApiKey',
    Type.Object({
      id: Type.String(),
      display_prefix: Type.String({ description: 'First characters of the key, to recognise it.' }),
      scopes: Type.Array(Type.String()),
      created_at: DateTime,
      age_days: Type.Integer({
        minimum: 0,
        description: 'Whole days since `created_at`. Rotate keys every 90 days; the owner is told by e-mail at 90.',
      }),
      last_used_at: NullableDateTime('Last authenticated request (written at most once a minute).'),
      revoked_at: NullableDateTime('When the key was revoked; null: not revoked.'),
      expires_at: NullableDateTime(
        'From this moment the key is refused (401) like a revoked one; set by a roll or at creation. Null: no expiry.',
      ),
      rolled_into: Type.Union([Type.String(), Type.Null()], {
        description: 'The id of the key that replaced this one in a roll.',
      }),
    }),
  );
  const CreatedKeySchema = Named(
    'ApiKeyCreated',
    Type.Composite([
      ApiKeySchema,
      Type.Object({ key: Type.String({ description: 'The plaintext key. Shown only in this response.' }) }),
    ]),
  );
  const CreateKeySchema = Named(
    'ApiKeyInput',
    Type.Object(
      {
        scopes: Type.Optional(
          Type.Array(ScopeSchema, {
            minItems: 1,
            maxItems: 20,
            uniqueItems: true,
            description: 'Defaults to the scopes of the calling key; never more than those.',
          }),
        ),
        expires_in_hours: Type.Optional(
          Type.Integer({
            minimum: 1,
            maximum: MAX_CREATE_EXPIRY_HOURS,
            description: `A temporary key: it stops working this many hours after its creation (1 to ${MAX_CREATE_EXPIRY_HOURS}, one year). Without it, the key works until revoked or rolled.`,
          }),
        ),
      },
      { additionalProperties: false },
    ),
  );
  const RollKeySchema = Named(
    'ApiKeyRollInput',
    Type.Object(
      {
        expires_in_hours: Type.Integer({
          minimum: 0,
          maximum: MAX_ROLL_EXPIRY_HOURS,
          description: `Hours the rolled key keeps working next to its successor: 0 (it stops at once, e.g. after a leak) to ${MAX_ROLL_EXPIRY_HOURS} (7 days, time to deploy the new key everywhere). Required, so that a roll never cuts off a key by accident.`,
        }),
      },
      { additionalProperties: false },
    ),
  );
  const RolledKeySchema = Named(
    'ApiKeyRolled',
    Type.Composite([
      CreatedKeySchema,
      // The rolled key, with its `expires_at`.
      Type.Object({ previous: ApiKeySchema }),
    ]),
  );
  return { ApiKeySchema, CreatedKeySchema, CreateKeySchema, RollKeySchema, RolledKeySchema };
}
