import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IDEMPOTENCY_PRUNE_JOB, RUNNING_LEASE_MS } from '@platform/service';
import { until } from '@platform/testkit';
import { jpeg, multipart } from '@platform/uploads/testing';
import { startPropertyApp, validProperty, type PropertyTestContext } from './helpers.js';
import { createProperty } from './security/properties.js';

let ctx: PropertyTestContext;
beforeAll(async () => {
  ctx = await startPropertyApp();
});
afterAll(() => ctx.close());

let n = 0;
const newKey = () => `key-${Date.now()}-${++n}`;

/** A POST with an Idempotency-Key (and a JSON body when given). */
const post = (url: string, key: string, payload?: unknown, apikey = ctx.tenant.key) =>
  ctx.app.inject({
    method: 'POST',
    url,
    headers: { apikey, 'idempotency-key': key },
    ...(payload === undefined ? {} : { payload: payload as object }),
  });

/** A photo upload (multipart) with an Idempotency-Key. */
const uploadPhoto = (propertyId: string, key: string, data: Buffer) => {
  const { payload, contentType } = photoForm(data);
  return ctx.app.inject({
    method: 'POST',
    url: `/v1/properties/${propertyId}/media`,
    headers: { apikey: ctx.tenant.key, 'content-type': contentType, 'idempotency-key': key },
    payload,
  });
};
const photoForm = (data: Buffer) =>
  multipart([
    { name: 'kind', value: 'photo' },
    { name: 'file', filename: 'photo.jpg', type: 'image/jpeg', data },
  ]);

const lockWaiters = async () =>
  Number(
    (
      await ctx.db.query<{ n: string }>(
        "SELECT count(*) AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'",
      )
    )[0].n,
  );
const propertiesTitled = (title: string) => ctx.db.prisma.property.count({ where: { title } });
const createdEventsOf = async (propertyId: string) =>
  (await ctx.db.prisma.outboxEvent.findMany({ where: { type: 'property.created' } })).filter(
    (event) => JSON.parse(event.payload).data.property_id === propertyId,
  ).length;
const row = (applicationId: string, key: string) =>
  ctx.db.prisma.idempotencyKey.findUnique({ where: { application_id_key: { application_id: applicationId, key } } });

describe('Idempotency-Key on POST', () => {
  it('replays the first response of a retry (status, body, content type) and creates the property once', async () => {
    const key = newKey();
    const body = { ...validProperty(), title: `Replayed ${key}` };
    const first = await post('/v1/properties', key, body);
    expect(first.statusCode).toBe(201);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    // The same object with its keys in another order is the same request.
    const reordered = Object.fromEntries(Object.entries(body).reverse());
    const retry = await post('/v1/properties', key, reordered);
    expect(retry.statusCode).toBe(201);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.headers['content-type']).toBe(first.headers['content-type']);
    expect(retry.body).toBe(first.body);
    expect(retry.headers['x-request-id']).not.toBe(first.headers['x-request-id']);
    expect(await propertiesTitled(body.title)).toBe(1);
    expect(await createdEventsOf(first.json().id)).toBe(1);
  });

  it('answers the same key with another body 422 idempotency_key_reused, and another path too', async () => {
    const key = newKey();
    const body = { ...validProperty(), title: `Reused ${key}` };
    expect((await post('/v1/properties', key, body)).statusCode).toBe(201);
    const other = await post('/v1/properties', key, { ...body, rooms: 3 });
    expect(other.statusCode).toBe(422);
    expect(other.json()).toMatchObject({ code: 'idempotency_key_reused' });
    const elsewhere = await post('/v1/channels', key, { type: 'website', name: 'Site' });
    expect(elsewhere.statusCode).toBe(422);
    expect(elsewhere.json().code).toBe('idempotency_key_reused');
    expect(await propertiesTitled(body.title)).toBe(1);
    expect(await ctx.db.prisma.channel.count({ where: { name: 'Site' } })).toBe(0);
  });

  it('serves the leads API in German: replay of a new Interessent, 422 idempotency_key_wiederverwendet for another body', async () => {
    const key = newKey();
    const prospect = {
      nachname: 'Idempotent',
      email: `${key}@example.de`,
      einwilligung: { zweck: 'Kontakt', erteilt_am: '2026-01-01T10:00:00Z' },
    };
    const first = await post('/leads/v1/interessenten', key, prospect);
    expect(first.statusCode).toBe(201);
    const retry = await post('/leads/v1/interessenten', key, prospect);
    expect(retry.statusCode).toBe(201);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.body).toBe(first.body);
    expect(await ctx.db.prisma.prospect.count({ where: { email: prospect.email } })).toBe(1);
    const other = await post('/leads/v1/interessenten', key, { ...prospect, nachname: 'Anders' });
    expect(other.statusCode).toBe(422);
    expect(other.json()).toMatchObject({
      code: 'idempotency_key_wiederverwendet',
      message: expect.stringContaining('Idempotency-Key'),
    });
  });

  it('forgets a stored response with the data of a prospect when the prospect is erased', async () => {
    const key = newKey();
    const prospect = {
      nachname: 'Vergessen',
      email: `${key}@example.de`,
      einwilligung: { zweck: 'Kontakt', erteilt_am: '2026-01-01T10:00:00Z' },
    };
    const first = await post('/leads/v1/interessenten', key, prospect);
    expect(first.statusCode).toBe(201);
    expect(await row(ctx.tenant.applicationId, key)).not.toBeNull();
    expect((await post(`/leads/v1/interessenten/${first.json().id}/loeschung`, newKey())).statusCode).toBeLessThan(300);
    expect(await row(ctx.tenant.applicationId, key)).toBeNull();
    // The retry runs again instead of replaying the erased name and address.
    const retry = await post('/leads/v1/interessenten', key, prospect);
    expect(retry.headers['idempotent-replayed']).toBeUndefined();
    expect(retry.body).not.toBe(first.body);
  });

  it('frees the key of a request whose process died without answering, once its lease ran out unrenewed', async () => {
    const key = newKey();
    const body = { ...validProperty(), title: `Orphaned ${key}` };
    // A claim as a killed process leaves it: running, never answered, no longer renewed.
    await ctx.db.prisma.idempotencyKey.create({
      data: {
        application_id: ctx.tenant.applicationId,
        key,
        fingerprint: 'unknown',
        created_at: new Date(ctx.clock.now.getTime() - RUNNING_LEASE_MS / 2),
      },
    });
    const early = await post('/v1/properties', key, body);
    expect(early.statusCode).toBe(422); // another request's claim (its fingerprint differs), still within its lease
    await ctx.db.prisma.idempotencyKey.update({
      where: { application_id_key: { application_id: ctx.tenant.applicationId, key } },
      data: { created_at: new Date(ctx.clock.now.getTime() - RUNNING_LEASE_MS - 1) },
    });
    const late = await post('/v1/properties', key, body);
    expect(late.statusCode).toBe(201);
    expect(await propertiesTitled(body.title)).toBe(1);
  });

  it('renews the claim of a request that runs longer than the lease, so that no retry runs it twice', async () => {
    const key = newKey();
    const body = { ...validProperty(), title: `Slow ${key}` };
    const claimedAt = async () => (await row(ctx.tenant.applicationId, key))?.created_at.getTime();
    const { first, retry } = await ctx.db.prisma.$transaction(
      async (tx) => {
        await tx.$queryRaw`SELECT id FROM accounts WHERE id = ${ctx.tenant.accountId} FOR UPDATE`;
        const first = post('/v1/properties', key, body);
        await until(async () => (await row(ctx.tenant.applicationId, key)) && (await lockWaiters()) >= 1);
        // The request has run for longer than its lease: the process serving it moves the lease on.
        const aged = ctx.clock.now.getTime() - RUNNING_LEASE_MS - 1;
        await ctx.db.query('UPDATE idempotency_keys SET created_at = $1 WHERE key = $2', [new Date(aged), key]);
        await until(async () => ((await claimedAt()) ?? aged) > aged, 15_000);
        const retry = await post('/v1/properties', key, body);
        return { first, retry };
      },
      { timeout: 30_000 },
    );
    expect(retry.statusCode).toBe(409);
    expect((await first).statusCode).toBe(201);
    expect(await propertiesTitled(body.title)).toBe(1);
  }, 40_000);

  it('refuses a body nested too deeply to fingerprint with 422, not 500', async () => {
    const depth = 150_000;
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/v1/properties',
      headers: { apikey: ctx.tenant.key, 'content-type': 'application/json', 'idempotency-key': newKey() },
      payload: `${'['.repeat(depth)}${']'.repeat(depth)}`,
    });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({
      code: 'validation_failed',
      details: [{ field: 'body', reason: 'not_allowed' }],
    });
  });

  it('lets exactly one of concurrent requests with the same key run; the others are 409 conflict with Retry-After: 1', async () => {
    const key = newKey();
    const body = { ...validProperty(), title: `Concurrent ${key}` };
    // The account row locked: the request that claims the key waits inside its insert, still running,
    // while two more arrive at once.
    const { first, others } = await ctx.db.prisma.$transaction(
      async (tx) => {
        await tx.$queryRaw`SELECT id FROM accounts WHERE id = ${ctx.tenant.accountId} FOR UPDATE`;
        const first = post('/v1/properties', key, body);
        await until(async () => (await row(ctx.tenant.applicationId, key)) && (await lockWaiters()) >= 1);
        const others = await Promise.all([post('/v1/properties', key, body), post('/v1/properties', key, body)]);
        return { first, others }; // in an object: returning the promise would make the transaction wait for it
      },
      { timeout: 15_000 },
    );
    for (const conflict of others) {
      expect(conflict.statusCode).toBe(409);
      expect(conflict.json().code).toBe('conflict');
      expect(conflict.headers['retry-after']).toBe('1');
    }
    const created = await first;
    expect(created.statusCode).toBe(201);
    expect(await propertiesTitled(body.title)).toBe(1);
    // Once the first has finished, a retry gets its response.
    const retry = await post('/v1/properties', key, body);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.body).toBe(created.body);
  });

  it('refuses keys longer than 255 characters and empty or non-ASCII ones with 422 validation_failed', async () => {
    const title = `Bad key ${newKey()}`;
    const long = await post('/v1/properties', 'k'.repeat(256), { ...validProperty(), title });
    expect(long.statusCode).toBe(422);
    expect(long.json()).toMatchObject({
      code: 'validation_failed',
      details: [{ field: 'Idempotency-Key', reason: 'too_long' }],
    });
    const empty = await post('/v1/properties', '', { ...validProperty(), title });
    expect(empty.json()).toMatchObject({
      code: 'validation_failed',
      details: [{ field: 'Idempotency-Key', reason: 'invalid_format' }],
    });
    const umlaut = await post('/v1/properties', 'schlüssel', { ...validProperty(), title });
    expect(umlaut.json()).toMatchObject({
      code: 'validation_failed',
      details: [{ field: 'Idempotency-Key', reason: 'invalid_format' }],
    });
    const german = await post('/leads/v1/interessenten', 'k'.repeat(256), {});
    expect(german.json()).toMatchObject({
      code: 'validierung_fehlgeschlagen',
      details: [{ feld: 'Idempotency-Key', grund: 'zu_lang' }],
    });
    expect((await post('/v1/properties', 'k'.repeat(255), { ...validProperty(), title })).statusCode).toBe(201);
    expect(await propertiesTitled(title)).toBe(1);
  });

  it('scopes keys per application: another tenant with the same key runs its own request', async () => {
    const key = newKey();
    const body = { ...validProperty(), title: `Scoped ${key}` };
    const mine = await post('/v1/properties', key, body);
    const theirs = await post('/v1/properties', key, body, ctx.other.key);
    expect(theirs.statusCode).toBe(201);
    expect(theirs.headers['idempotent-replayed']).toBeUndefined();
    expect(theirs.json().id).not.toBe(mine.json().id);
    expect(await propertiesTitled(body.title)).toBe(2);
  });

  it('stores a 4xx validation failure and replays it', async () => {
    const key = newKey();
    const first = await post('/v1/properties', key, { title: 'no type' });
    expect(first.statusCode).toBe(422);
    expect(first.json().code).toBe('validation_failed');
    const retry = await post('/v1/properties', key, { title: 'no type' });
    expect(retry.statusCode).toBe(422);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.body).toBe(first.body);
    expect((await row(ctx.tenant.applicationId, key))?.response_status).toBe(422);
  });

  it('ignores the header on other methods and makes no record without it', async () => {
    const id = await createProperty(ctx);
    const key = newKey();
    const patch = () =>
      ctx.app.inject({
        method: 'PATCH',
        url: `/v1/properties/${id}`,
        headers: { apikey: ctx.tenant.key, 'idempotency-key': key },
        payload: { rooms: 4 },
      });
    expect((await patch()).headers['idempotent-replayed']).toBeUndefined();
    expect((await patch()).headers['idempotent-replayed']).toBeUndefined();
    expect(await row(ctx.tenant.applicationId, key)).toBeNull();
    const before = await ctx.db.prisma.idempotencyKey.count();
    await createProperty(ctx);
    expect(await ctx.db.prisma.idempotencyKey.count()).toBe(before);
  });

  it('frees a key after 24 hours on the app clock', async () => {
    const key = newKey();
    const body = { ...validProperty(), title: `Expiring ${key}` };
    const start = ctx.clock.now;
    try {
      expect((await post('/v1/properties', key, body)).statusCode).toBe(201);
      ctx.clock.now = new Date(start.getTime() + 23 * 3_600_000);
      expect((await post('/v1/properties', key, body)).headers['idempotent-replayed']).toBe('true');
      ctx.clock.now = new Date(start.getTime() + 24 * 3_600_000 + 1000);
      const later = await post('/v1/properties', key, { ...body, rooms: 5 });
      expect(later.statusCode).toBe(201);
      expect(later.headers['idempotent-replayed']).toBeUndefined();
      expect(await propertiesTitled(body.title)).toBe(2);
    } finally {
      ctx.clock.now = start;
    }
  });

  it('the prune job deletes keys older than 24 hours and keeps fresh ones', async () => {
    const oldKey = newKey();
    const freshKey = newKey();
    const start = ctx.clock.now;
    try {
      ctx.clock.now = new Date(start.getTime() - 25 * 3_600_000);
      await post('/v1/properties', oldKey, { ...validProperty(), title: `Old ${oldKey}` });
      ctx.clock.now = start;
      await post('/v1/properties', freshKey, { ...validProperty(), title: `Fresh ${freshKey}` });
    } finally {
      ctx.clock.now = start;
    }
    expect(await row(ctx.tenant.applicationId, oldKey)).not.toBeNull();
    const result = await IDEMPOTENCY_PRUNE_JOB.run(
      { db: ctx.db.prisma, now: start, storage: ctx.storage, sandbox: ctx.sandbox, jobs: ctx.jobs },
      {},
    );
    expect(result.removed_keys).toBeGreaterThanOrEqual(1);
    expect(await row(ctx.tenant.applicationId, oldKey)).toBeNull();
    expect(await row(ctx.tenant.applicationId, freshKey)).not.toBeNull();
  });

  it('replays a multipart upload without running it again', async () => {
    const propertyId = await createProperty(ctx);
    const key = newKey();
    const upload = (data: Buffer) => uploadPhoto(propertyId, key, data);
    const put = ctx.storage.put;
    let writes = 0;
    ctx.storage.put = (...args) => (writes++, put.apply(ctx.storage, args));
    try {
      const photo = jpeg(40, 30, key);
      const first = await upload(photo);
      expect(first.statusCode).toBe(201);
      const retry = await upload(photo);
      expect(retry.statusCode).toBe(201);
      expect(retry.headers['idempotent-replayed']).toBe('true');
      expect(retry.body).toBe(first.body);
      expect(writes).toBe(3); // the file and its two renditions, once
      expect(await ctx.db.prisma.propertyMedia.count({ where: { property_id: propertyId } })).toBe(1);
      // Another file (of another size) with the same key is another request.
      const other = await upload(jpeg(40, 30, `${key}-another`));
      expect(other.statusCode).toBe(422);
      expect(other.json().code).toBe('idempotency_key_reused');
      expect(writes).toBe(3);
    } finally {
      ctx.storage.put = put;
    }
  });

  it('never writes a response with a secret shown once (a new API key) to the table: its key is released', async () => {
    const key = newKey();
    const first = await post('/v1/api-keys', key, { scopes: ['properties:read'] });
    expect(first.statusCode).toBe(201);
    expect(await row(ctx.tenant.applicationId, key)).toBeNull();
    const stored = await ctx.db.query<{ n: string }>(
      "SELECT count(*) AS n FROM idempotency_keys WHERE position(convert_to($1, 'UTF8') IN response_body) > 0",
      [first.json().key],
    );
    expect(Number(stored[0].n)).toBe(0);
    const retry = await post('/v1/api-keys', key, { scopes: ['properties:read'] });
    expect(retry.statusCode).toBe(201);
    expect(retry.headers['idempotent-replayed']).toBeUndefined();
    expect(retry.json().id).not.toBe(first.json().id);
  });

  it('keeps no webhook signing secret either: a new endpoint and a rotated secret', async () => {
    const created = await post('/v1/webhooks', newKey(), {
      url: 'https://hooks.example.com/in',
      events: ['property.created'],
    });
    expect(created.statusCode).toBe(201);
    const rotated = await post(`/v1/webhooks/${created.json().id}/rotate-secret`, newKey(), {});
    expect(rotated.statusCode).toBe(200);
    for (const secret of [created.json().signing_secret, rotated.json().signing_secret]) {
      const stored = await ctx.db.query<{ n: string }>(
        "SELECT count(*) AS n FROM idempotency_keys WHERE position(convert_to($1, 'UTF8') IN response_body) > 0",
        [secret],
      );
      expect(Number(stored[0].n)).toBe(0);
    }
  });

  it('releases the key of an upload the client cut off, so that its retry runs', async () => {
    const propertyId = await createProperty(ctx);
    const key = newKey();
    const photo = jpeg(40, 30, key);
    const { payload, contentType } = photoForm(photo);
    const address = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    const logsBefore = ctx.logs.lines.length;
    const cut = request(`${address}/v1/properties/${propertyId}/media`, {
      method: 'POST',
      headers: {
        apikey: ctx.tenant.key,
        'content-type': contentType,
        'content-length': payload.length,
        'idempotency-key': key,
      },
    });
    let answered: number | undefined;
    cut.on('response', (res) => (answered = res.statusCode));
    cut.on('error', () => {});
    cut.write(payload.subarray(0, payload.length >> 1));
    // Claimed: the upload runs (an answer before that, e.g. a 503 of an overloaded machine, fails here at once).
    await until(async () => {
      if (answered !== undefined) throw new Error(`answered ${answered} before the key was claimed`);
      return row(ctx.tenant.applicationId, key);
    });
    cut.destroy();
    await until(async () => (await row(ctx.tenant.applicationId, key)) === null);
    // The client went away: not an error of ours.
    expect(ctx.logs.lines.slice(logsBefore).join('')).not.toContain('unexpected error');
    const retry = await uploadPhoto(propertyId, key, photo);
    expect(retry.statusCode).toBe(201);
    expect(retry.headers['idempotent-replayed']).toBeUndefined();
    expect(await ctx.db.prisma.propertyMedia.count({ where: { property_id: propertyId } })).toBe(1);
  });

  it('does not keep a 5xx: the key is released and a retry runs again', async () => {
    const key = newKey();
    const body = { ...validProperty(), title: `Failing ${key}` };
    // A trigger refuses this one insert: an unexpected database error (500) inside the handler.
    await ctx.db.prisma.$executeRawUnsafe(
      `CREATE FUNCTION refuse_insert() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'refused'; END $$`,
    );
    await ctx.db.prisma.$executeRawUnsafe(
      `CREATE TRIGGER refuse_insert BEFORE INSERT ON properties FOR EACH ROW WHEN (NEW.title = '${body.title}') EXECUTE FUNCTION refuse_insert()`,
    );
    let failed;
    try {
      failed = await post('/v1/properties', key, body);
    } finally {
      await ctx.db.prisma.$executeRawUnsafe('DROP TRIGGER refuse_insert ON properties');
      await ctx.db.prisma.$executeRawUnsafe('DROP FUNCTION refuse_insert()');
    }
    expect(failed.statusCode).toBe(500);
    expect(await row(ctx.tenant.applicationId, key)).toBeNull();
    const retry = await post('/v1/properties', key, body);
    expect(retry.statusCode).toBe(201);
    expect(retry.headers['idempotent-replayed']).toBeUndefined();
    expect(await propertiesTitled(body.title)).toBe(1);
  });
});
