import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '@platform/db';
import { scoreInquiry } from '../src/leads/inquiry-scoring.js';
import { rankProspectsInSql } from '../src/leads/matching.js';
import { startPropertyApp, type PropertyTestContext } from './helpers.js';

let ctx: PropertyTestContext;
beforeAll(async () => {
  ctx = await startPropertyApp();
});
afterAll(() => ctx.close());

describe('the SQL ranking follows the inquiry scoring model', () => {
  it('finds exactly the prospects the model does not knock out, with the same points', async () => {
    let seed = 7;
    const rnd = () => ((seed = (seed * 16807) % 2147483647) / 2147483647);
    const pick = <T>(xs: readonly T[]) => xs[Math.floor(rnd() * xs.length)];
    const property = await ctx.db.prisma.property.create({
      data: { id: newId('prop'), account_id: ctx.tenant.accountId, status: 'active', type: 'apartment', title: 'T', address_postal_code: '10115', address_city: 'Berlin', rooms: 3, living_area_sqm: 75, purchase_price_eur: 400000, cold_rent_eur: 1200 },
    });
    for (let i = 0; i < 200; i++) {
      await ctx.db.prisma.prospect.create({
        data: {
          id: newId('int'),
          account_id: ctx.tenant.accountId,
          has_profile: true,
          profil_aktiv: rnd() > 0.1,
          profil_vermarktung: pick(['kauf', 'miete'] as const),
          profil_typ: pick([[], ['apartment'], ['house'], ['apartment', 'house']] as ('apartment' | 'house')[][]),
          profil_orte: pick([[], ['Berlin'], ['berlin '], ['101'], ['Hamburg'], ['Hamburg', '10']]),
          profil_zimmer_min: pick([null, 1, 2.5, 3, 4, 6]),
          profil_kaufpreis_max: pick([null, 300000, 340000, 380000, 420000, 600000]),
          profil_kaltmiete_max: pick([null, 900, 1000, 1100, 1500]),
          profil_wohnflaeche_min: pick([null, 50, 75, 90, 120]),
          last_activity_at: new Date(),
          retention_until: new Date('2099-01-01'),
        },
      });
    }
    const prospects = await ctx.db.prisma.prospect.findMany({ where: { account_id: ctx.tenant.accountId, profil_aktiv: true } });
    const expected = new Map(
      prospects.map((p) => [p.id, scoreInquiry({ property, prospect: p })] as const).filter(([, b]) => !b.ausgeschlossen).map(([id, b]) => [id, b.gesamt]),
    );
    const ranked = await rankProspectsInSql(ctx.db.prisma, property, 1000, 0);
    expect(new Set(ranked.map((r) => r.id))).toEqual(new Set(expected.keys()));
    expect(expected.size).toBeGreaterThan(20);
    for (const r of ranked) expect(Math.abs(Number(r.points) - expected.get(r.id)!), r.id).toBeLessThanOrEqual(0.5);
    const points = ranked.map((r) => Number(r.points));
    expect(points).toEqual([...points].sort((a, b) => b - a));
  });
});
