import { expect } from 'vitest';
import type { PropertyTestContext } from './helpers.js';

/** The prospect's einwilligung of the consent tests (its first marketing record). */
export const einwilligung = { zweck: 'Kontakt zu Angeboten', erteilt_am: '2026-11-01T10:00:00Z' };

/** A marketing consent from the website form (double opt-in by default). */
export const websiteConsent = {
  zweck: 'marketing',
  quelle: 'website_formular',
  erteilt_am: '2026-11-10T08:00:00Z',
  textversion: '2026-11',
  zweck_text: 'Newsletter und passende Angebote',
};

export interface ConsentView {
  id: string;
  zweck: string;
  gueltig: boolean;
  bestaetigt_am: string | null;
  widerrufen_am: string | null;
  zweck_text: string | null;
  erteilt_am: string;
  angelegt_am: string;
}

/** The consent tests' requests against one test app. */
export function consentRequests(ctx: PropertyTestContext) {
  const base = (id: string) => `/leads/v1/interessenten/${id}/einwilligungen`;
  return {
    async createProspect(name = 'Muster', key = ctx.tenant.key, given = einwilligung) {
      const body = { nachname: name, email: `${name.toLowerCase()}@example.de`, einwilligung: given };
      const res = await ctx.send('POST', '/leads/v1/interessenten', body, key);
      expect(res.statusCode).toBe(201);
      return res.json() as { id: string; einwilligung: unknown };
    },
    consents: async (id: string, key = ctx.tenant.key) =>
      (await ctx.send('GET', base(id), undefined, key)).json().daten as ConsentView[],
    prospect: async (id: string) => (await ctx.send('GET', `/leads/v1/interessenten/${id}`)).json(),
    give: (id: string, body: object) => ctx.send('POST', base(id), body),
    confirm: (id: string, consentId: string) => ctx.send('POST', `${base(id)}/${consentId}/bestaetigung`),
    withdraw: (id: string, consentId: string) => ctx.send('POST', `${base(id)}/${consentId}/widerruf`),
  };
}
