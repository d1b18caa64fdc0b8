// The data subject's rights in the German dialect: consent records with double opt-in and
// withdrawal, restriction and its lifting, objection, the Auskunft (JSON and PDF) and the Treffer
// settings. The prospect stays (not erased), so the generic reads find it first in its collection.
import { describe, expect, it } from 'vitest';
import { unwrap } from '@platform/client';
import type { ContractRun } from '../harness.js';

export function describeDataSubjectRights(run: ContractRun): void {
  const leads = () => run.clients.leads;
  let prospectId = '';
  const prospect = () => ({ params: { path: { interessentId: prospectId } } });

  describe('Rechte der betroffenen Person', () => {
    it('erteilt eine Einwilligung mit Double-Opt-in, bestätigt und widerruft sie', async () => {
      prospectId = (
        await unwrap(
          leads().POST('/leads/v1/interessenten', {
            body: {
              nachname: 'Rechte',
              email: 'rechte@example.de',
              einwilligung: { zweck: 'Angebote per E-Mail', erteilt_am: '2026-01-01T10:00:00Z' },
              suchprofil: { typ: ['apartment' as const] },
            },
          }),
        )
      ).id;
      const given = await unwrap(
        leads().POST('/leads/v1/interessenten/{interessentId}/einwilligungen', {
          ...prospect(),
          body: { zweck: 'marketing', quelle: 'website_formular', erteilt_am: new Date().toISOString() },
        }),
      );
      expect(given).toMatchObject({ double_opt_in: true, gueltig: false });
      const path = { params: { path: { interessentId: prospectId, einwilligungId: given.id } } };
      const confirmed = await unwrap(
        leads().POST('/leads/v1/interessenten/{interessentId}/einwilligungen/{einwilligungId}/bestaetigung', path),
      );
      expect(confirmed.gueltig).toBe(true);
      const withdrawn = await unwrap(
        leads().POST('/leads/v1/interessenten/{interessentId}/einwilligungen/{einwilligungId}/widerruf', path),
      );
      expect(withdrawn).toMatchObject({ gueltig: false, widerrufen_am: expect.any(String) });
    });

    it('schränkt die Verarbeitung ein, hebt die Einschränkung auf und nimmt einen Widerspruch an', async () => {
      const url = '/leads/v1/interessenten/{interessentId}/einschraenkung' as const;
      expect((await unwrap(leads().POST(url, prospect()))).eingeschraenkt_seit).toEqual(expect.any(String));
      expect((await unwrap(leads().DELETE(url, prospect()))).eingeschraenkt_seit).toBeNull();
      const objected = await unwrap(leads().POST('/leads/v1/interessenten/{interessentId}/widerspruch', prospect()));
      expect(objected.widerspruch_seit).toEqual(expect.any(String));
    });

    it('gibt Auskunft als JSON und als PDF', async () => {
      const auskunft = await unwrap(leads().GET('/leads/v1/interessenten/{interessentId}/auskunft', prospect()));
      expect(auskunft.interessent_id).toBe(prospectId);
      expect(auskunft.einwilligungen.length).toBeGreaterThanOrEqual(2);
      const pdf = await leads().GET('/leads/v1/interessenten/{interessentId}/auskunft/pdf', {
        ...prospect(),
        parseAs: 'arrayBuffer',
      });
      expect(pdf.response.status).toBe(200);
      expect(pdf.response.headers.get('content-type')).toMatch(/^application\/pdf/);
    });

    it('setzt und liest die Treffer-Einstellungen des Kontos', async () => {
      const body = { treffer_schwelle: 80, treffer_pro_tag: 2 };
      expect(await unwrap(leads().PUT('/leads/v1/einstellungen/treffer', { body }))).toEqual(body);
      expect(await unwrap(leads().GET('/leads/v1/einstellungen/treffer'))).toEqual(body);
    });
  });
}
