import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { errorResponses, type Dialect } from '@platform/http';

const IdempotencyHeaders = Type.Object({
  'idempotency-key': Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 255,
      description:
        'Makes a retried POST run once: the first response is replayed for 24 h (`Idempotent-Replayed: true`).',
    }),
  ),
});

/**
 * The answers every authenticated operation can give besides its own — 429 (rate limit) and 503
 * (overload, a dependency away) — and the `Idempotency-Key` header of every POST, written into the
 * operations' schemas so that the OpenAPI documents list them.
 */
export function documentGuards(api: FastifyInstance, dialect: Dialect): void {
  api.addHook('onRoute', (route) => {
    if (!route.schema || route.config?.public || route.schema.hide) return;
    const responses = (route.schema.response ?? {}) as Record<string, unknown>;
    const methods = [route.method].flat();
    // A POST may also meet its Idempotency-Key: 409 while the first runs, 422 for another body.
    const statuses = methods.includes('POST') ? [409, 422, 429, 503] : [429, 503];
    const missing = statuses.filter((status) => !(status in responses));
    route.schema = {
      ...route.schema,
      response: { ...responses, ...errorResponses(missing, dialect) },
      ...(methods.includes('POST') && !route.schema.headers ? { headers: IdempotencyHeaders } : {}),
    };
  });
}
