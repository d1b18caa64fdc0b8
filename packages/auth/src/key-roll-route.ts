import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { ApiError, AUTH_ERRORS, BODY_ERRORS, errorResponses } from '@platform/http';
import { KeyNotRollableError, MAX_ROLL_EXPIRY_HOURS, rollApiKey } from './key-roll.js';
import { keySchemas } from './key-schemas.js';
import { KeyLimitError } from './keys-service.js';
import type { ApiKeyRoutesOptions } from './routes.js';

/** `POST /api-keys/{keyId}/roll`: a successor now, the old key's expiry within 7 days. */
export function rollRoute(
  plugin: FastifyInstance,
  options: ApiKeyRoutesOptions & { maxKeys: number; now: () => Date; scope: string; tags: string[] },
): void {
  const app = plugin.withTypeProvider<TypeBoxTypeProvider>();
  const { RollKeySchema, RolledKeySchema } = keySchemas(options.service);
  app.post(
    '/api-keys/:keyId/roll',
    {
      config: { scope: options.scope, showsSecretOnce: true },
      schema: {
        tags: options.tags,
        operationId: 'rollApiKey',
        summary: 'Roll an API key',
        description: `Replaces a key: creates its successor with the same scopes (valid at once; the plaintext \`key\` is shown only here) and gives the old key an expiry \`expires_in_hours\` from now: 0 after a leak (it stops at once), up to ${MAX_ROLL_EXPIRY_HOURS} (7 days) to deploy the new key first. From its \`expires_at\` the old key is answered 401 \`api_key_invalid\` like a revoked one, on every instance within seconds. An earlier expiry the key already had is kept. A revoked or expired key cannot be rolled (409 \`conflict\`; create a new key). The rolled key does not count against the key limit.`,
        params: Type.Object({ keyId: Type.String() }),
        body: RollKeySchema,
        response: { 201: RolledKeySchema, ...errorResponses([...AUTH_ERRORS, 404, 409, ...BODY_ERRORS]) },
      },
    },
    async (request, reply) => {
      try {
        const rolled = await rollApiKey(options.db, {
          keyId: request.params.keyId,
          applicationId: request.auth.applicationId,
          service: options.service,
          environment: options.environment,
          pepper: options.pepper,
          expiresInHours: request.body.expires_in_hours,
          maxKeys: options.maxKeys,
          now: options.now(),
        });
        if (!rolled) throw new ApiError('not_found', { message: 'No such API key.' });
        // This instance stops accepting the old key at its expiry at once; others within their cache's seconds.
        options.verifier.forget(request.params.keyId);
        return reply.status(201).send({ ...rolled.key, key: rolled.plaintext, previous: rolled.previous });
      } catch (error) {
        if (error instanceof KeyNotRollableError) throw new ApiError('conflict', { message: error.message });
        if (error instanceof KeyLimitError)
          throw new ApiError('conflict', {
            message: `An application can have at most ${error.limit} active API keys, and this one has ${error.active} besides the key to roll; revoke one (DELETE /v1/api-keys/{id}) first.`,
          });
        throw error;
      }
    },
  );
}
