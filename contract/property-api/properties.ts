// Properties and their media through the typed client: create (with Idempotency-Key), read, list,
// change, every status action, uploads and downloads.
import { describe, expect, it } from 'vitest';
import { ApiError, idempotencyKey, multipart, paginate, unwrap } from '@platform/client';
import { jpeg, pdf } from '@platform/uploads/testing';
import type { ContractRun } from '../harness.js';
import { ENERGY_CERTIFICATE, type PropertyState } from './state.js';

export function describeProperties(run: ContractRun, state: PropertyState): void {
  const client = () => run.clients.property;
  const path = () => ({ params: { path: { propertyId: state.propertyId } } });

  describe('properties', () => {
    it('creates a property once per Idempotency-Key, and refuses an invalid one with 422', async () => {
      const key = idempotencyKey();
      const body = {
        type: 'apartment' as const,
        title: 'Altbau mit Balkon',
        address: { street: 'Parkstraße 5', postal_code: '10115', city: 'Berlin' },
        living_area_sqm: 64.5,
        rooms: 2,
        year_built: 1998,
        purchase_price_eur: 420_000,
        energy_certificate: ENERGY_CERTIFICATE,
        commission: { seller_percent: 3.57, buyer_percent: 2.38, engaged_by: 'seller' as const },
      };
      const first = await unwrap(client().POST('/v1/properties', { body, headers: { 'Idempotency-Key': key } }));
      const again = await client().POST('/v1/properties', { body, headers: { 'Idempotency-Key': key } });
      expect(again.data?.id).toBe(first.id);
      expect(again.response.headers.get('idempotent-replayed')).toBe('true');
      state.propertyId = first.id;
      const invalid = await unwrap(
        client().POST('/v1/properties', { body: { ...body, address: { postal_code: '1', city: 'Berlin' } } }),
      ).catch((e: unknown) => e);
      expect(invalid).toMatchObject({ status: 422, code: 'validation_failed' });
    });

    it('reads, lists and changes it; another account sees nothing of it', async () => {
      expect((await unwrap(client().GET('/v1/properties/{propertyId}', path()))).id).toBe(state.propertyId);
      const ids: string[] = [];
      for await (const p of client().properties.list({ status: 'draft', limit: 1 })) ids.push(p.id);
      expect(ids).toContain(state.propertyId);
      const changed = await unwrap(
        client().PATCH('/v1/properties/{propertyId}', { ...path(), body: { title: 'Altbau mit Südbalkon' } }),
      );
      expect(changed.title).toBe('Altbau mit Südbalkon');
      const invalid = await client().PATCH('/v1/properties/{propertyId}', { ...path(), body: { rooms: -1 } });
      expect(invalid.response.status).toBe(422);
      const other = await run.recorder.fetch(`${run.urls.property}/v1/properties/${state.propertyId}`, {
        headers: { apikey: run.otherProperty.key },
      });
      expect(other.status).toBe(404);
    });

    it('uploads, lists, reads, changes, downloads (and 304) and deletes media', async () => {
      const photo = await unwrap(
        client().POST('/v1/properties/{propertyId}/media', {
          ...path(),
          body: { kind: 'photo', title: 'Front', file: new Blob([jpeg(1600, 1200)], { type: 'image/jpeg' }) },
          bodySerializer: multipart,
        }),
      );
      state.photo = { id: photo.id, sha256: photo.sha256 };
      const media = path().params.path;
      expect(
        (await unwrap(client().GET('/v1/properties/{propertyId}/media', { params: { path: media } }))).data,
      ).toHaveLength(1);
      for await (const m of paginate(client(), '/v1/properties/{propertyId}/media', { path: media }))
        expect(m.id).toBe(photo.id);
      const medium = { params: { path: { ...media, mediaId: photo.id } } };
      expect((await unwrap(client().GET('/v1/properties/{propertyId}/media/{mediaId}', medium))).kind).toBe('photo');
      expect(
        (
          await unwrap(
            client().PATCH('/v1/properties/{propertyId}/media/{mediaId}', {
              ...medium,
              body: { title: 'Straßenseite' },
            }),
          )
        ).title,
      ).toBe('Straßenseite');
      const download = await client().GET('/v1/properties/{propertyId}/media/{mediaId}/content', {
        ...medium,
        parseAs: 'arrayBuffer',
      });
      expect(download.response.status).toBe(200);
      const etag = download.response.headers.get('etag')!;
      const unchanged = await client().GET('/v1/properties/{propertyId}/media/{mediaId}/content', {
        ...medium,
        headers: { 'If-None-Match': etag },
        parseAs: 'arrayBuffer',
      });
      expect(unchanged.response.status).toBe(304);
      // What is published of it: a rendition, made from its pixels at upload.
      expect(photo.renditions.map((r) => [r.variant, r.width, r.height])).toEqual([
        ['large', 1600, 1200],
        ['thumbnail', 640, 480],
      ]);
      const rendition = await client().GET('/v1/properties/{propertyId}/media/{mediaId}/renditions/{variant}', {
        params: { path: { ...media, mediaId: photo.id, variant: 'thumbnail' } },
        parseAs: 'arrayBuffer',
      });
      expect(rendition.response.status).toBe(200);
      expect(rendition.response.headers.get('content-type')).toBe('image/jpeg');
      expect(rendition.response.headers.get('etag')).toBe(`"${photo.renditions[1].sha256}"`);
      const document = await unwrap(
        client().POST('/v1/properties/{propertyId}/media', {
          ...path(),
          body: { kind: 'document', file: new Blob([pdf()], { type: 'application/pdf' }) },
          bodySerializer: multipart,
        }),
      );
      const deleted = await client().DELETE('/v1/properties/{propertyId}/media/{mediaId}', {
        params: { path: { ...media, mediaId: document.id } },
      });
      expect(deleted.response.status).toBe(204);
      const wrongKind = await client().POST('/v1/properties/{propertyId}/media', {
        ...path(),
        body: { kind: 'photo', file: new Blob([pdf()], { type: 'application/pdf' }) },
        bodySerializer: multipart,
      });
      expect(wrongKind.response.status).toBe(422);
    });

    it('moves through every status action, and refuses an invalid transition with 409', async () => {
      const act = (
        action: 'activate' | 'reserve' | 'release' | 'archive' | 'restore' | 'relist' | 'mark-rented',
        id = state.propertyId,
      ) =>
        unwrap(
          client().POST(`/v1/properties/{propertyId}/${action}` as '/v1/properties/{propertyId}/activate', {
            params: { path: { propertyId: id } },
          }),
        );
      expect((await act('activate')).status).toBe('active');
      const twice = await act('activate').catch((e: unknown) => e);
      expect(twice).toBeInstanceOf(ApiError);
      expect(twice).toMatchObject({ status: 409 });
      expect((await act('reserve')).status).toBe('reserved');
      expect((await act('release')).status).toBe('active');
      // a letting: rented, relisted, archived and restored
      const flat = await unwrap(
        client().POST('/v1/properties', {
          body: {
            type: 'apartment',
            title: 'Zur Miete',
            address: { postal_code: '10115', city: 'Berlin' },
            cold_rent_eur: 900,
          },
        }),
      );
      await act('activate', flat.id);
      expect((await act('mark-rented', flat.id)).status).toBe('rented');
      expect((await act('relist', flat.id)).status).toBe('active');
      expect((await act('archive', flat.id)).status).toBe('archived');
      expect((await act('restore', flat.id)).status).toBe('draft');
    });
  });
}
