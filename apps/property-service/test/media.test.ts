import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jpeg, pdf, png, webp } from '@platform/uploads/testing';
import { whileHeld } from '@platform/testkit';
import { startPropertyApp, type PropertyTestContext } from './helpers.js';
import { blobFiles, photoParts, uploadMedia } from './media-helpers.js';
import { createProperty } from './security/properties.js';

let ctx: PropertyTestContext;
beforeAll(async () => {
  ctx = await startPropertyApp();
});
afterAll(() => ctx.close());

const sha = (data: Buffer) => createHash('sha256').update(data).digest('hex');
const mediaRows = (propertyId: string) =>
  ctx.db.prisma.propertyMedia.findMany({ where: { property_id: propertyId }, orderBy: { position: 'asc' } });
const property = (id: string) => ctx.send('GET', `/v1/properties/${id}`).then((r) => r.json());

describe('property media: upload and download', () => {
  it('stores a PNG photo with its dimensions, counts it and serves it with ETag, length and disposition', async () => {
    const id = await createProperty(ctx);
    const data = png(40, 30);
    const res = await uploadMedia(ctx, id, photoParts(data, [{ name: 'title', value: 'Living room' }]));
    expect(res.statusCode).toBe(201);
    const media = res.json();
    expect(media).toMatchObject({
      property_id: id,
      kind: 'photo',
      title: 'Living room',
      position: 0,
      content_type: 'image/png',
      size: data.length,
      sha256: sha(data),
      filename: 'photo.png',
      width: 40,
      height: 30,
    });
    expect(media.id).toMatch(/^med_/);
    expect((await property(id)).media_count).toBe(1);
    expect(await ctx.storage.exists(sha(data))).toBe(true);

    const download = await ctx.send('GET', media.content_url);
    expect(download.statusCode).toBe(200);
    expect(download.rawPayload.equals(data)).toBe(true);
    expect(download.headers).toMatchObject({
      'content-type': 'image/png',
      'content-length': String(data.length),
      etag: `"${sha(data)}"`,
      'content-disposition': `attachment; filename="photo.png"; filename*=UTF-8''photo.png`,
    });
    const cached = await ctx.app.inject({
      method: 'GET',
      url: media.content_url,
      headers: { apikey: ctx.tenant.key, 'if-none-match': `"${sha(data)}"` },
    });
    expect(cached.statusCode).toBe(304);
    expect(cached.rawPayload.length).toBe(0);
    expect((await ctx.send('GET', `/v1/properties/${id}/media/${media.id}`)).json()).toEqual(media);
  });

  it('takes files larger than the 1 MiB JSON body limit and refuses one over the default 20 MiB with 413', async () => {
    const id = await createProperty(ctx);
    const large = png(16, 16, 'x'.repeat(5 * 1024 * 1024));
    const res = await uploadMedia(ctx, id, photoParts(large));
    expect(res.statusCode).toBe(201);
    expect(res.json().size).toBe(large.length);
    const tooLarge = png(16, 16, 'x'.repeat(20 * 1024 * 1024));
    const refused = await uploadMedia(ctx, id, photoParts(tooLarge));
    expect(refused.statusCode).toBe(413);
    expect(await ctx.storage.exists(sha(tooLarge))).toBe(false);
    expect((await property(id)).media_count).toBe(1);
  });

  it('accepts JPEG and WebP photos and a PDF floor plan and document', async () => {
    const id = await createProperty(ctx);
    const jpg = await uploadMedia(ctx, id, photoParts(jpeg(640, 480), [], 'image/jpeg', 'a.jpg'));
    expect(jpg.json()).toMatchObject({ content_type: 'image/jpeg', width: 640, height: 480 });
    const wp = await uploadMedia(ctx, id, photoParts(webp(300, 200), [], 'image/webp', 'b.webp'));
    expect(wp.json()).toMatchObject({ content_type: 'image/webp', width: 300, height: 200 });
    for (const kind of ['floor_plan', 'document']) {
      const res = await uploadMedia(ctx, id, [
        { name: 'kind', value: kind },
        { name: 'file', filename: 'plan.pdf', type: 'application/pdf', data: pdf() },
      ]);
      expect(res.statusCode, `${kind}: ${res.body}`).toBe(201);
      expect(res.json()).toMatchObject({ kind, content_type: 'application/pdf', width: null, height: null });
    }
    expect((await property(id)).media_count).toBe(4);
  });

  it.each([
    ['a PDF renamed photo.jpg', pdf(), 'image/jpeg', 'photo'],
    ['a script renamed photo.jpg', Buffer.from('#!/bin/sh\nrm -rf /\n'), 'image/jpeg', 'photo'],
    ['a PNG declared as JPEG', png(2, 2), 'image/jpeg', 'photo'],
    ['a PDF as a photo', pdf(), 'application/pdf', 'photo'],
    ['a PNG as a document', png(2, 2), 'image/png', 'document'],
    ['text as a document', Buffer.from('just text'), 'text/plain', 'document'],
  ])('refuses %s with 422 (file, not_allowed) and keeps no row and no blob', async (_name, data, type, kind) => {
    const id = await createProperty(ctx);
    const res = await uploadMedia(ctx, id, [
      { name: 'kind', value: kind },
      { name: 'file', filename: 'photo.jpg', type, data },
    ]);
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({
      code: 'validation_failed',
      details: [{ field: 'file', reason: 'not_allowed' }],
    });
    expect(await mediaRows(id)).toEqual([]);
    expect(await ctx.storage.exists(sha(data))).toBe(false);
    expect((await property(id)).media_count).toBe(0);
  });

  it('refuses missing or invalid fields and a missing file with 422, leaving no blob', async () => {
    const id = await createProperty(ctx);
    const data = png(3, 3);
    const badKind = await uploadMedia(ctx, id, [
      { name: 'kind', value: 'selfie' },
      { name: 'file', filename: 'a.png', type: 'image/png', data },
    ]);
    expect(badKind.statusCode).toBe(422);
    expect(badKind.json().details).toEqual([
      {
        field: 'kind',
        reason: 'not_allowed',
        message: 'kind must be one of: "photo", "floor_plan", "document".',
        constraint: { allowed: ['photo', 'floor_plan', 'document'] },
      },
    ]);
    const badPosition = await uploadMedia(ctx, id, photoParts(data, [{ name: 'position', value: 'first' }]));
    expect(badPosition.json().details).toEqual([
      {
        field: 'position',
        reason: 'invalid_type',
        message: 'position must be of type integer.',
        constraint: { type: 'integer' },
      },
    ]);
    const noFile = await uploadMedia(ctx, id, [{ name: 'kind', value: 'photo' }]);
    expect(noFile.json().details).toEqual([{ field: 'file', reason: 'missing' }]);
    expect(await ctx.storage.exists(sha(data))).toBe(false);
    const json = await ctx.send('POST', `/v1/properties/${id}/media`, { kind: 'photo' });
    expect(json.statusCode).toBe(415);
    const headers = { apikey: ctx.tenant.key };
    for (const [contentType, payload] of [
      ['multipart/form-data', 'garbage'],
      ['multipart/form-data; boundary=xyz', '--xyz\r\nContent-Disposition: form-data; name="kind"\r\n\r\nphoto'],
    ]) {
      const malformed = await ctx.app.inject({
        method: 'POST',
        url: `/v1/properties/${id}/media`,
        headers: { ...headers, 'content-type': contentType! },
        payload,
      });
      expect(malformed.statusCode, payload).toBe(400);
      expect(malformed.json().message).toBe('The multipart/form-data body is malformed.');
    }
  });

  it('refuses uploads to an archived property with 409 and stores nothing', async () => {
    const id = await createProperty(ctx);
    expect((await ctx.send('POST', `/v1/properties/${id}/archive`)).statusCode).toBe(200);
    const data = png(5, 5);
    const res = await uploadMedia(ctx, id, photoParts(data));
    expect(res.statusCode).toBe(409);
    expect(res.json().code).toBe('conflict');
    expect(await ctx.storage.exists(sha(data))).toBe(false);
  });

  it('keeps the media of an archived property as they are: a change or a deletion is 409, and works again after a restore', async () => {
    const id = await createProperty(ctx);
    const media = (await uploadMedia(ctx, id, photoParts(png(6, 6)))).json();
    expect((await ctx.send('POST', `/v1/properties/${id}/archive`)).statusCode).toBe(200);
    const patched = await ctx.send('PATCH', `/v1/properties/${id}/media/${media.id}`, { title: 'changed' });
    expect([patched.statusCode, patched.json().code]).toEqual([409, 'conflict']);
    expect((await ctx.send('DELETE', `/v1/properties/${id}/media/${media.id}`)).statusCode).toBe(409);
    expect((await ctx.send('GET', `/v1/properties/${id}/media/${media.id}`)).json().title).toBeNull();
    expect((await property(id)).media_count).toBe(1);
    expect((await ctx.send('POST', `/v1/properties/${id}/restore`)).statusCode).toBe(200);
    expect((await ctx.send('DELETE', `/v1/properties/${id}/media/${media.id}`)).statusCode).toBe(204);
  });

  it("answers another account's property with 404 and refuses a call without a key with 401", async () => {
    const theirs = await createProperty(ctx, ctx.other.key);
    expect((await uploadMedia(ctx, theirs, photoParts(png(2, 2)))).statusCode).toBe(404);
    expect((await uploadMedia(ctx, theirs, photoParts(png(2, 2)), '')).statusCode).toBe(401);
  });
});

describe('property media: order, changes and deletion', () => {
  it('keeps positions dense when inserting, moving and deleting, and counts the media', async () => {
    const id = await createProperty(ctx);
    const ids: string[] = [];
    for (let i = 0; i < 4; i++)
      ids.push((await uploadMedia(ctx, id, photoParts(png(2, 2), [{ name: 'title', value: `p${i}` }]))).json().id);
    const first = (
      await uploadMedia(
        ctx,
        id,
        photoParts(png(2, 2), [
          { name: 'title', value: 'first' },
          { name: 'position', value: '0' },
        ]),
      )
    ).json();
    expect(first.position).toBe(0);
    const titles = async () =>
      (await ctx.send('GET', `/v1/properties/${id}/media`))
        .json()
        .data.map((m: { title: string; position: number }) => `${m.position}:${m.title}`);
    expect(await titles()).toEqual(['0:first', '1:p0', '2:p1', '3:p2', '4:p3']);

    const moved = await ctx.send('PATCH', `/v1/properties/${id}/media/${first.id}`, {
      position: 3,
      title: 'now fourth',
    });
    expect(moved.statusCode).toBe(200);
    expect(await titles()).toEqual(['0:p0', '1:p1', '2:p2', '3:now fourth', '4:p3']);
    await ctx.send('PATCH', `/v1/properties/${id}/media/${ids[3]}`, { position: 99 });
    expect(await titles()).toEqual(['0:p0', '1:p1', '2:p2', '3:now fourth', '4:p3']);
    await ctx.send('PATCH', `/v1/properties/${id}/media/${ids[3]}`, { position: 0 });
    expect(await titles()).toEqual(['0:p3', '1:p0', '2:p1', '3:p2', '4:now fourth']);

    expect((await ctx.send('DELETE', `/v1/properties/${id}/media/${ids[0]}`)).statusCode).toBe(204);
    expect(await titles()).toEqual(['0:p3', '1:p1', '2:p2', '3:now fourth']);
    expect((await property(id)).media_count).toBe(4);
    expect((await ctx.send('GET', `/v1/properties/${id}/media/${ids[0]}`)).statusCode).toBe(404);
  });

  it('pages the list in position order', async () => {
    const id = await createProperty(ctx);
    for (let i = 0; i < 5; i++) await uploadMedia(ctx, id, photoParts(png(2, 2), [{ name: 'title', value: `p${i}` }]));
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: { data: { title: string }[]; page: { next_cursor: string | null } } = (
        await ctx.send('GET', `/v1/properties/${id}/media?limit=2${cursor ? `&cursor=${cursor}` : ''}`)
      ).json();
      seen.push(...page.data.map((m) => m.title));
      cursor = page.page.next_cursor;
    } while (cursor);
    expect(seen).toEqual(['p0', 'p1', 'p2', 'p3', 'p4']);
  });

  it('emits property.updated with changed_fields ["media"] when media are added or deleted', async () => {
    const id = await createProperty(ctx);
    const media = (await uploadMedia(ctx, id, photoParts(png(2, 2)))).json();
    await ctx.send('DELETE', `/v1/properties/${id}/media/${media.id}`);
    const events = await ctx.db.prisma.outboxEvent.findMany({
      where: { type: 'property.updated' },
      orderBy: { created_at: 'asc' },
    });
    const mine = events
      .map((e) => JSON.parse(e.payload).data)
      .filter((d: { property_id: string }) => d.property_id === id);
    expect(mine).toEqual([
      { property_id: id, changed_fields: ['media'] },
      { property_id: id, changed_fields: ['media'] },
    ]);
  });

  it('removes a blob only when no other record uses the same content', async () => {
    const a = await createProperty(ctx);
    const b = await createProperty(ctx);
    const data = png(7, 7);
    const first = (await uploadMedia(ctx, a, photoParts(data))).json();
    const second = (await uploadMedia(ctx, b, photoParts(data))).json();
    expect(second.sha256).toBe(first.sha256);
    await ctx.send('DELETE', `/v1/properties/${a}/media/${first.id}`);
    expect(await ctx.storage.exists(sha(data))).toBe(true);
    expect((await ctx.send('GET', second.content_url)).rawPayload.equals(data)).toBe(true);
    await ctx.send('DELETE', `/v1/properties/${b}/media/${second.id}`);
    expect(await ctx.storage.exists(sha(data))).toBe(false);
  });

  it('keeps media_count and positions right under concurrent uploads and deletions', async () => {
    const id = await createProperty(ctx);
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) => uploadMedia(ctx, id, photoParts(png(2, 2 + i)))),
    );
    expect(results.map((r) => r.statusCode)).toEqual(Array(8).fill(201));
    const rows = await mediaRows(id);
    expect(rows.map((r) => r.position)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect((await property(id)).media_count).toBe(8);
    await Promise.all([
      ...rows.slice(0, 3).map((r) => ctx.send('DELETE', `/v1/properties/${id}/media/${r.id}`)),
      uploadMedia(ctx, id, photoParts(png(3, 3))),
    ]);
    expect((await mediaRows(id)).map((r) => r.position)).toEqual([0, 1, 2, 3, 4, 5]);
    expect((await property(id)).media_count).toBe(6);
  });

  it('counts and places two uploads that wait on the same property row one after the other', async () => {
    const id = await createProperty(ctx);
    // Hold the property row so that both uploads have stored their file before either records it;
    // without the row lock both would read media_count 0 and take position 0.
    const {
      result: [a, b],
      waited,
    } = await whileHeld(
      ctx.db,
      (tx) => tx.$queryRaw`SELECT id FROM properties WHERE id = ${id} FOR UPDATE`,
      () => Promise.all([uploadMedia(ctx, id, photoParts(png(2, 2))), uploadMedia(ctx, id, photoParts(png(3, 3)))]),
      2,
    );
    expect(waited).toBe(2);
    expect([a.statusCode, b.statusCode]).toEqual([201, 201]);
    expect([a.json().position, b.json().position].sort()).toEqual([0, 1]);
    expect((await property(id)).media_count).toBe(2);
  });

  it('leaves no temporary or orphaned blob behind after all this', async () => {
    const referenced = new Set([
      ...(await ctx.db.prisma.propertyMedia.findMany()).map((m) => m.sha256),
      ...(await ctx.db.prisma.mediaRendition.findMany()).map((r) => r.sha256),
    ]);
    const files = await blobFiles(ctx.blobRoot);
    expect(files.filter((f) => f.includes('.tmp'))).toEqual([]);
    expect(new Set(files.map((f) => f.split('/').pop()))).toEqual(referenced);
  });
});
