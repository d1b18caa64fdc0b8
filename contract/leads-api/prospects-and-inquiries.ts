// Prospects (Interessenten) and inquiries (Anfragen) in the German dialect: create, read, list,
// change, matches both ways, re-scoring, erasure; errors as LeadsApiError.
import { describe, expect, it } from 'vitest';
import { idempotencyKey, LeadsApiError, paginate, unwrap } from '@platform/client';
import type { ContractRun } from '../harness.js';

export function describeProspectsAndInquiries(run: ContractRun): void {
  const leads = () => run.clients.leads;
  const state = { propertyId: '', prospectId: '', inquiryId: '' };

  describe('Interessenten und Anfragen', () => {
    it('legt einen Interessenten an (einmal je Idempotency-Key) und lehnt einen ungültigen mit 422 ab', async () => {
      const property = await unwrap(
        run.clients.property.POST('/v1/properties', {
          body: {
            type: 'apartment',
            title: 'Dachgeschoss',
            address: { postal_code: '10115', city: 'Berlin' },
            rooms: 3,
            purchase_price_eur: 390_000,
          },
        }),
      );
      await unwrap(
        run.clients.property.POST('/v1/properties/{propertyId}/activate', {
          params: { path: { propertyId: property.id } },
        }),
      );
      state.propertyId = property.id;
      const body = {
        vorname: 'Erika',
        nachname: 'Mustermann',
        email: 'erika@example.de',
        einwilligung: { zweck: 'Suche nach einer Wohnung', erteilt_am: '2026-01-01T10:00:00Z' },
        suchprofil: { typ: ['apartment' as const] },
      };
      const key = idempotencyKey();
      const created = await unwrap(
        leads().POST('/leads/v1/interessenten', { body, headers: { 'Idempotency-Key': key } }),
      );
      expect(
        (await leads().POST('/leads/v1/interessenten', { body, headers: { 'Idempotency-Key': key } })).data?.id,
      ).toBe(created.id);
      state.prospectId = created.id;
      const invalid = await unwrap(
        leads().POST('/leads/v1/interessenten', { body: { ...body, email: 'keine-adresse' } }),
      ).catch((e: unknown) => e);
      expect(invalid).toBeInstanceOf(LeadsApiError);
      expect(invalid).toMatchObject({ status: 422, code: 'validierung_fehlgeschlagen' });
      expect((invalid as LeadsApiError).details[0]).toHaveProperty('feld');
    });

    it('liest, listet und ändert ihn', async () => {
      const prospect = { params: { path: { interessentId: state.prospectId } } };
      expect((await unwrap(leads().GET('/leads/v1/interessenten/{interessentId}', prospect))).nachname).toBe(
        'Mustermann',
      );
      const ids: string[] = [];
      for await (const p of leads().interessenten.list()) ids.push(p.id);
      expect(ids).toContain(state.prospectId);
      expect(
        (
          await unwrap(
            leads().PATCH('/leads/v1/interessenten/{interessentId}', {
              ...prospect,
              body: { telefon: '+49 30 1234567' },
            }),
          )
        ).telefon,
      ).toBe('+49 30 1234567');
    });

    it('legt eine Anfrage an, liest, listet und bewertet sie neu; Treffer in beide Richtungen', async () => {
      const inquiry = await unwrap(
        leads().POST('/leads/v1/anfragen', {
          body: { immobilie_id: state.propertyId, interessent_id: state.prospectId },
        }),
      );
      state.inquiryId = inquiry.id;
      const path = { params: { path: { anfrageId: inquiry.id } } };
      expect((await unwrap(leads().GET('/leads/v1/anfragen/{anfrageId}', path))).id).toBe(inquiry.id);
      const ids: string[] = [];
      for await (const a of leads().anfragen.list({ immobilie_id: state.propertyId })) ids.push(a.id);
      expect(ids).toEqual([inquiry.id]);
      expect((await leads().POST('/leads/v1/anfragen/{anfrageId}/bewertung', path)).response.status).toBe(200);
      const unknownProperty = await leads().POST('/leads/v1/anfragen', {
        body: { immobilie_id: 'prop_unbekannt', interessent_id: state.prospectId },
      });
      expect(unknownProperty.response.status).toBe(404);
      for await (const treffer of paginate(leads(), '/leads/v1/interessenten/{interessentId}/treffer', {
        path: { interessentId: state.prospectId },
      }))
        expect(treffer).toBeDefined();
      const matches = await leads().GET('/leads/v1/immobilien/{immobilieId}/interessenten', {
        params: { path: { immobilieId: state.propertyId } },
      });
      expect(matches.response.status).toBe(200);
    });

    it('löscht den Interessenten sofort (Art. 17 DSGVO); danach ist er nicht mehr zu ändern', async () => {
      const prospect = { params: { path: { interessentId: state.prospectId } } };
      const erased = await unwrap(leads().POST('/leads/v1/interessenten/{interessentId}/loeschung', prospect));
      expect(erased).toBeDefined();
      const after = await leads().PATCH('/leads/v1/interessenten/{interessentId}', {
        ...prospect,
        body: { nachname: 'Neu' },
      });
      expect([404, 409]).toContain(after.response.status);
    });
  });
}
