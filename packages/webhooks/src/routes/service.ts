import type { PrismaClient, Service } from '@platform/db';
import { missingScopesFor } from '../events/readable.js';
import { inSnapshot, newId } from '@platform/db';
import { ApiError, NEWEST_FIRST, cursorPage, notFound, validationError, type CursorCodec } from '@platform/http';
import type { Queue } from 'bullmq';
import type { EventCatalogue } from '../catalogue.js';
import { deleteEndpoint, pauseEndpoint, resumeEndpoint } from '../endpoint-ops.js';
import { lockEndpointRegistrations, takeTestEventSlot } from '../endpoint-sql.js';
import type { DeliveryJob } from '../queue.js';
import { SECRET_OVERLAP_MS } from '../schedule.js';
import { generateSigningSecret, type SecretBox } from '../secret-box.js';
import { checkTargetUrl, type Resolver, type SsrfPolicy } from '../ssrf.js';
import { toDelivery, toWebhook } from './mapping.js';

export interface WebhookInfrastructure {
  queue: Queue<DeliveryJob>;
  secrets: SecretBox;
  policy: SsrfPolicy;
  resolver?: Resolver;
  /** Endpoints an account may register in one service (each event fans out to all of them); default 20. */
  maxEndpointsPerAccount?: number;
  /** Test events (`POST /v1/webhooks/{id}/test`) per endpoint and minute; default 5. */
  testEventsPerMinute?: number;
}

export const DEFAULT_MAX_ENDPOINTS_PER_ACCOUNT = 20;
export const DEFAULT_TEST_EVENTS_PER_MINUTE = 5;

export interface WebhookServiceDeps extends WebhookInfrastructure {
  db: PrismaClient;
  catalogue: EventCatalogue;
  cursors: CursorCodec;
  now: () => Date;
  service: Service;
}

export interface Caller {
  accountId: string;
  /** The application whose key calls: the owner of an endpoint it registers (failure alerts). */
  applicationId?: string;
  scopes: ReadonlySet<string>;
}

export type WebhookService = ReturnType<typeof createWebhookService>;

/** Webhook endpoints of one account and service; a key manages only endpoints whose events it could read. */
export function createWebhookService(deps: WebhookServiceDeps) {
  const { db, catalogue, service } = deps;
  const maxEndpoints = deps.maxEndpointsPerAccount ?? DEFAULT_MAX_ENDPOINTS_PER_ACCOUNT;
  const testEventsPerMinute = deps.testEventsPerMinute ?? DEFAULT_TEST_EVENTS_PER_MINUTE;

  /** The catalogue's event types whose data the key may not read: it manages no endpoint receiving one. */
  const unreadableTypes = (caller: Caller) => catalogue.filter((e) => !caller.scopes.has(e.scope)).map((e) => e.type);

  function requireScopesFor(caller: Caller, events: readonly string[]): void {
    const missing = missingScopesFor(catalogue, caller.scopes, events);
    if (missing.length > 0) {
      throw new ApiError('scope_missing', {
        message: 'A key can only receive events whose data it may read.',
        details: missing.map((scope) => ({ field: scope, reason: 'not_granted' as const })),
      });
    }
  }

  async function checkUrl(url: string): Promise<void> {
    const problem = await checkTargetUrl(url, deps.policy, deps.resolver);
    if (problem)
      throw validationError(
        [{ field: 'url', reason: problem.startsWith('not a valid') ? 'invalid_format' : 'not_allowed' }],
        `The url ${problem}.`,
      );
  }

  async function find(caller: Caller, id: string) {
    const endpoint = await db.webhookEndpoint.findFirst({
      where: { id, account_id: caller.accountId, service, deleted_at: null },
    });
    if (!endpoint) throw notFound('No webhook with this id.');
    requireScopesFor(caller, endpoint.events);
    return endpoint;
  }

  return {
    async create(caller: Caller, body: { url: string; events: string[]; description?: string }) {
      requireScopesFor(caller, body.events);
      await checkUrl(body.url);
      const secret = generateSigningSecret();
      const at = deps.now();
      const row = await db.$transaction(async (tx) => {
        await lockEndpointRegistrations(tx, caller.accountId, service);
        const existing = await tx.webhookEndpoint.count({
          where: { account_id: caller.accountId, service, deleted_at: null },
        });
        if (existing >= maxEndpoints) {
          throw new ApiError('validation_failed', {
            message: `An account can register at most ${maxEndpoints} webhook endpoints, and this one has ${existing}; delete one (DELETE /v1/webhooks/{id}) before registering another.`,
          });
        }
        return tx.webhookEndpoint.create({
          data: {
            id: newId('whk', at.getTime()),
            account_id: caller.accountId,
            service,
            url: body.url,
            events: body.events,
            description: body.description ?? null,
            secret_encrypted: deps.secrets.encrypt(secret),
            application_id: caller.applicationId ?? null,
            created_at: at,
            updated_at: at,
          },
        });
      });
      return { ...toWebhook(row), signing_secret: secret };
    },

    /**
     * Only the endpoints the key could manage (every event type they receive is readable with its
     * scopes), filtered in the query so that pages stay full and cursors stay valid.
     */
    list(caller: Caller, query: { limit: number; cursor?: string }) {
      const unreadable = unreadableTypes(caller);
      const manageable = unreadable.length > 0 ? { NOT: { events: { hasSome: unreadable } } } : {};
      return cursorPage({
        cursors: deps.cursors,
        scope: `webhooks:${caller.accountId}:${service}${unreadable.length > 0 ? `:without:${unreadable.join(',')}` : ''}`,
        cursor: query.cursor,
        limit: query.limit,
        fetch: (after, take) =>
          db.webhookEndpoint.findMany({
            where: { account_id: caller.accountId, service, deleted_at: null, ...manageable, ...after },
            orderBy: NEWEST_FIRST,
            take,
          }),
        map: toWebhook,
      });
    },

    async get(caller: Caller, id: string) {
      return toWebhook(await find(caller, id));
    },

    /** The endpoint's row for another operation on it (404 / 403 as here). */
    endpoint: find,

    async update(
      caller: Caller,
      id: string,
      body: { url?: string; events?: string[]; description?: string | null; status?: 'active' | 'paused' },
    ) {
      const endpoint = await find(caller, id);
      if (body.events) requireScopesFor(caller, body.events);
      if (body.url !== undefined) await checkUrl(body.url);
      const at = deps.now();
      await db.webhookEndpoint.update({
        where: { id },
        data: { url: body.url, events: body.events, description: body.description, updated_at: at },
      });
      if (body.status === 'active' && endpoint.status === 'paused') await resumeEndpoint(db, id, at); // the relay sends what was held
      if (body.status === 'paused' && endpoint.status === 'active') await pauseEndpoint(db, id, at);
      return toWebhook(await db.webhookEndpoint.findUniqueOrThrow({ where: { id } }));
    },

    /** Gone for the tenant at once; the relay's sweep removes the history in batches. */
    async remove(caller: Caller, id: string) {
      await find(caller, id);
      await deleteEndpoint(db, id, deps.now());
    },

    async deliveries(
      caller: Caller,
      id: string,
      query: { limit: number; cursor?: string; status?: 'pending' | 'succeeded' | 'failed' | 'held' },
    ) {
      await find(caller, id);
      return cursorPage({
        cursors: deps.cursors,
        scope: `deliveries:${id}:${query.status ?? ''}`,
        cursor: query.cursor,
        limit: query.limit,
        // One snapshot: Prisma reads the attempts in a second query, which must not see an attempt the delivery's count does not.
        fetch: (after, take) =>
          inSnapshot(db, (tx) =>
            tx.webhookDelivery.findMany({
              where: { endpoint_id: id, status: query.status, ...after },
              orderBy: NEWEST_FIRST,
              take,
              include: { event: { select: { type: true } }, attempts: { orderBy: { attempted_at: 'asc' } } },
            }),
          ),
        map: toDelivery,
      });
    },

    async retry(caller: Caller, id: string, deliveryId: string) {
      const endpoint = await find(caller, id);
      const delivery = await db.webhookDelivery.findFirst({ where: { id: deliveryId, endpoint_id: id } });
      if (!delivery) throw notFound('No delivery with this id.');
      if (endpoint.status === 'paused')
        throw new ApiError('conflict', { message: 'The webhook is paused; resume it first (PATCH status: active).' });
      // No queue call in the request (it must answer while Redis is down): the relay gives the
      // marked delivery a new job, replacing a finished one, after a running attempt.
      const at = deps.now();
      await db.webhookDelivery.update({
        where: { id: deliveryId },
        data: { status: 'pending', next_attempt_at: at, failure_reason: null, requeue_at: at, updated_at: at },
      });
      return toDelivery(
        await db.webhookDelivery.findUniqueOrThrow({
          where: { id: deliveryId },
          include: { event: { select: { type: true } }, attempts: { orderBy: { attempted_at: 'asc' } } },
        }),
      );
    },

    /** A signed `webhook.test` event for this endpoint only; a few per minute (429 `rate_limited` with `Retry-After` beyond). */
    async test(caller: Caller, id: string) {
      const endpoint = await find(caller, id);
      if (endpoint.status === 'paused')
        throw new ApiError('conflict', { message: 'The webhook is paused; resume it first (PATCH status: active).' });
      const at = deps.now();
      const eventId = newId('evt', at.getTime());
      const deliveryId = newId('dlv', at.getTime());
      const payload = JSON.stringify({
        id: eventId,
        type: 'webhook.test',
        created_at: at.toISOString(),
        data: { webhook_id: id },
      });
      await db.$transaction(async (tx) => {
        const slot = await takeTestEventSlot(tx, id, at, { limit: testEventsPerMinute, windowMs: 60_000 });
        if (!slot.ok) {
          throw new ApiError('rate_limited', {
            message: `At most ${testEventsPerMinute} test events per minute and endpoint; try again in ${slot.retryAfterSeconds} s.`,
            headers: { 'retry-after': String(slot.retryAfterSeconds) },
          });
        }
        await tx.outboxEvent.create({
          data: {
            id: eventId,
            account_id: caller.accountId,
            service,
            type: 'webhook.test',
            payload,
            created_at: at,
            relayed_at: at,
          },
        });
        // the relay gives it its job (no queue call in the request, which must answer while Redis is down)
        await tx.webhookDelivery.create({
          data: {
            id: deliveryId,
            event_id: eventId,
            endpoint_id: id,
            account_id: caller.accountId,
            next_attempt_at: at,
            requeue_at: at,
            created_at: at,
            updated_at: at,
          },
        });
      });
      return { event_id: eventId, delivery_id: deliveryId };
    },

    /** New secret; for 24 h both sign, so receivers can switch without losing deliveries. */
    async rotateSecret(caller: Caller, id: string) {
      const endpoint = await find(caller, id);
      const at = deps.now();
      const secret = generateSigningSecret();
      const expires = new Date(at.getTime() + SECRET_OVERLAP_MS);
      await db.webhookEndpoint.update({
        where: { id },
        data: {
          secret_encrypted: deps.secrets.encrypt(secret),
          previous_secret_encrypted: endpoint.secret_encrypted,
          previous_secret_expires_at: expires,
          updated_at: at,
        },
      });
      return { id, signing_secret: secret, previous_secret_expires_at: expires.toISOString() };
    },

    eventTypes() {
      return {
        data: catalogue.map((e) => ({ type: e.type, description: e.description, scope: e.scope, data_schema: e.data })),
      };
    },
  };
}
