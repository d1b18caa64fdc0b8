import fp from 'fastify-plugin';
import type { PrismaClient } from '@platform/db';
import type { Dialect } from '@platform/http';

export interface IdempotencyPluginOptions {
  db: PrismaClient;
  now: () => Date;
  dialect: Dialect;
}

/** `Idempotency-Key` on the POSTs of the authenticated context it is registered in (after auth). */
export const idempotency = fp<IdempotencyPluginOptions>(async () => {}, { name: 'platform-idempotency' });
