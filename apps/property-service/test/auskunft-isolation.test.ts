// The Auskunft (issue 37) holds nothing of anyone else, answers another account's prospect like an
// unknown one, and needs a scope of its own. Content: auskunft.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addKey } from '@platform/testkit';
import { propertyDescriptor } from '../src/descriptor.js';
import { auskunftFixtures, pdfText, person, type FullProspect } from './auskunft-helpers.js';
import { startPropertyApp, type PropertyTestContext } from './helpers.js';

let ctx: PropertyTestContext;
let fixtures: ReturnType<typeof auskunftFixtures>;
let mine: FullProspect;
let neighbour: FullProspect;
let stranger: FullProspect;
beforeAll(async () => {
  ctx = await startPropertyApp();
  fixtures = auskunftFixtures(ctx);
  ctx.clock.now = new Date('2026-11-20T10:00:00Z');
  mine = await fixtures.fullProspect(ctx.tenant, 'Mira');
  neighbour = await fixtures.fullProspect(ctx.tenant, 'Nepomuk');
  stranger = await fixtures.fullProspect(ctx.other, 'Sieglinde');
});
afterAll(() => ctx.close());

describe('GET /leads/v1/interessenten/{id}/auskunft: isolation and scope', () => {
  it('holds no value of another prospect, of this account or another', async () => {
    const all = [(await fixtures.auskunft(mine.id)).body, pdfText((await fixtures.auskunftPdf(mine.id)).rawPayload)];
    for (const other of [neighbour, stranger]) {
      const name = other === neighbour ? 'Nepomuk' : 'Sieglinde';
      const values = [
        ...Object.values(person(name)).filter((v): v is string => typeof v === 'string'),
        `Nachricht von ${name}`,
        other.id,
        other.consent,
        other.appointment,
        ...other.inquiries,
        ...other.matched, // the properties announced to them
      ];
      for (const text of all) for (const value of values) expect(text).not.toContain(value);
    }
  });

  it('needs the scope leads:export: a key with leads:read only is refused', async () => {
    const reader = await addKey(ctx.db.prisma, ctx.tenant, { service: propertyDescriptor, scopes: ['leads:read'] });
    for (const res of [await fixtures.auskunft(mine.id, reader.key), await fixtures.auskunftPdf(mine.id, reader.key)]) {
      expect(res.statusCode).toBe(403);
      expect(res.json().code).toBe('scope_fehlt');
    }
  });

  it("answers another account's prospect exactly like an unknown one", async () => {
    const theirs = await fixtures.auskunft(stranger.id);
    const unknown = await fixtures.auskunft('int_unknown');
    expect(theirs.statusCode).toBe(404);
    expect(theirs.body).toBe(unknown.body);
    expect((await fixtures.auskunftPdf(stranger.id)).body).toBe((await fixtures.auskunftPdf('int_unknown')).body);
  });
});
