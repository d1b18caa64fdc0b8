import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsync } from 'fastify';
import type { Db, Environment } from '@platform/db';
import {
  ApiError,
  AUTH_ERRORS,
  BODY_ERRORS,
  type CursorCodec,
  cursorPage,
  errorResponses,
  NEWEST_FIRST,
  PageQuerySchema,
  PageSchema,
  validationError,
} from '@platform/http';
import type { KeyOwner } from './key-owner.js';
import { rollRoute } from './key-roll-route.js';
import { keySchemas } from './key-schemas.js';
import {
  DEFAULT_KEYS_PER_APPLICATION,
  KeyLimitError,
  createApiKey,
  revokeApiKey,
  toApiKeyView,
} from './keys-service.js';
import type { KeyVerifier } from './verifier.js';

export interface ApiKeyRoutesOptions {
  db: Db;
  service: KeyOwner;
  environment: Environment;
  pepper: string;
  verifier: KeyVerifier;
  cursors: CursorCodec;
  /** Active keys an application may have (API_KEYS_PER_APPLICATION); default 20. */
  maxKeys?: number;
  /** The clock of key ages and expiries; default the real one. */
  now?: () => Date;
}

export const KEYS_SCOPE = 'keys:manage';
const SCOPE = KEYS_SCOPE;

/** Self-service key rotation: list the application's keys, create a second one, roll one, revoke one. */
export const apiKeyRoutes: FastifyPluginAsync<ApiKeyRoutesOptions> = async (plugin, options) => {
  const app = plugin.withTypeProvider<TypeBoxTypeProvider>();
  const { ApiKeySchema, CreatedKeySchema, CreateKeySchema } = keySchemas(options.service);
  const tags = ['API keys'];
  const maxKeys = options.maxKeys ?? DEFAULT_KEYS_PER_APPLICATION;
  const now = options.now ?? (() => new Date());

  app.get(
    '/api-keys',
    {
      config: { scope: SCOPE },
      schema: {
        tags,
        operationId: 'listApiKeys',
        summary: 'List API keys',
        description:
          'Keys of the calling application, newest first, with their age (`created_at`, `age_days`), `last_used_at`, `expires_at` and `revoked_at`.',
        querystring: PageQuerySchema,
        response: { 200: PageSchema(ApiKeySchema), ...errorResponses([...AUTH_ERRORS, 422]) },
      },
    },
    async (request) => {
      const at = now();
      return cursorPage({
        cursors: options.cursors,
        scope: `api-keys:${request.auth.applicationId}`,
        cursor: request.query.cursor,
        limit: request.query.limit,
        fetch: (after, take) =>
          options.db.apiKey.findMany({
            where: { application_id: request.auth.applicationId, ...after },
            orderBy: NEWEST_FIRST,
            take,
          }),
        map: (row) => toApiKeyView(row, at),
      });
    },
  );

  app.post(
    '/api-keys',
    {
      config: { scope: SCOPE, showsSecretOnce: true },
      schema: {
        tags,
        operationId: 'createApiKey',
        summary: 'Create an API key',
        description: `Creates another key for the calling application (valid at once); the plaintext \`key\` is shown only here. An application has at most ${maxKeys} active keys; beyond, 409 \`conflict\` (revoke one first). All keys of an application share its rate limit. With \`expires_in_hours\`, a temporary key that stops working then.`,
        body: CreateKeySchema,
        response: { 201: CreatedKeySchema, ...errorResponses([...AUTH_ERRORS, 409, ...BODY_ERRORS]) },
      },
    },
    async (request, reply) => {
      const scopes = request.body?.scopes ?? [...request.auth.scopes];
      const beyond = scopes.filter((scope) => !request.auth.scopes.has(scope));
      if (beyond.length > 0) {
        throw new ApiError('scope_missing', {
          message: 'A key can only grant scopes that the calling key has.',
          details: beyond.map((scope) => ({ field: scope, reason: 'not_granted' as const })),
        });
      }
      if (scopes.length === 0) throw validationError([{ field: 'scopes', reason: 'missing' }]);
      const at = now();
      const hours = request.body?.expires_in_hours;
      try {
        const { key, plaintext } = await createApiKey(options.db, {
          applicationId: request.auth.applicationId,
          service: options.service,
          environment: options.environment,
          scopes,
          pepper: options.pepper,
          maxKeys,
          now: at,
          expiresAt: hours === undefined ? undefined : new Date(at.getTime() + hours * 3_600_000),
        });
        return reply.status(201).send({ ...key, key: plaintext });
      } catch (error) {
        if (!(error instanceof KeyLimitError)) throw error;
        throw new ApiError('conflict', {
          message: `An application can have at most ${error.limit} active API keys, and this one has ${error.active}; revoke one (DELETE /v1/api-keys/{id}) before creating another.`,
        });
      }
    },
  );

  app.delete(
    '/api-keys/:keyId',
    {
      config: { scope: SCOPE },
      schema: {
        tags,
        operationId: 'revokeApiKey',
        summary: 'Revoke an API key',
        description: `Revokes a key of the calling application; it stops working within seconds on every instance. Revoking twice is harmless.`,
        params: Type.Object({ keyId: Type.String() }),
        response: { 204: Type.Null({ description: 'Revoked.' }), ...errorResponses([...AUTH_ERRORS, 404]) },
      },
    },
    async (request, reply) => {
      const found = await revokeApiKey(options.db, {
        id: request.params.keyId,
        applicationId: request.auth.applicationId,
      });
      if (!found) throw new ApiError('not_found', { message: 'No such API key.' });
      options.verifier.forget(request.params.keyId);
      return reply.status(204).send(null);
    },
  );

  rollRoute(app, { ...options, maxKeys, now, scope: SCOPE, tags });
};
