// Viewing appointments and slots (for inquiries made through the leads API), and valuations.
import { describe, expect, it } from 'vitest';
import { unwrap } from '@platform/client';
import type { ContractRun } from '../harness.js';
import { hoursFromNow, type PropertyState } from './state.js';

let prospects = 0;

/** An inquiry for the property by a new prospect, through the leads API. */
async function inquiry(run: ContractRun, propertyId: string): Promise<string> {
  const n = ++prospects;
  const created = await unwrap(
    run.clients.leads.POST('/leads/v1/anfragen', {
      body: {
        immobilie_id: propertyId,
        interessent: {
          nachname: `Besucher${n}`,
          email: `besucher${n}@example.de`,
          einwilligung: { zweck: 'Besichtigung', erteilt_am: '2026-01-01T10:00:00Z' },
          suchprofil: { typ: ['apartment'] },
        },
      },
    }),
  );
  return created.id;
}

export function describeScheduling(run: ContractRun, state: PropertyState): void {
  const client = () => run.clients.property;

  describe('appointments, viewing slots and valuations', () => {
    it('books, lists, reads, exports, confirms, reschedules and completes an appointment; cancels another', async () => {
      state.inquiryId = await inquiry(run, state.propertyId);
      state.secondInquiryId = await inquiry(run, state.propertyId);
      const booked = await unwrap(
        client().POST('/v1/appointments', {
          body: { inquiry_id: state.inquiryId, starts_at: hoursFromNow(24), ends_at: hoursFromNow(25) },
        }),
      );
      const overlapping = await client().POST('/v1/appointments', {
        body: { inquiry_id: state.inquiryId, starts_at: hoursFromNow(24), ends_at: hoursFromNow(25) },
      });
      expect(overlapping.response.status).toBe(409);
      const appointment = { params: { path: { appointmentId: booked.id } } };
      const ids: string[] = [];
      for await (const a of client().appointments.list()) ids.push(a.id);
      expect(ids).toContain(booked.id);
      expect((await unwrap(client().GET('/v1/appointments/{appointmentId}', appointment))).id).toBe(booked.id);
      const ics = await client().GET('/v1/appointments/{appointmentId}/ics', { ...appointment, parseAs: 'text' });
      expect(ics.data).toContain('BEGIN:VCALENDAR');
      expect(
        (
          await unwrap(
            client().POST('/v1/appointments/{appointmentId}/confirm', { ...appointment, body: { by: 'agent' } }),
          )
        ).status,
      ).toBe('confirmed');
      expect(
        (
          await unwrap(
            client().POST('/v1/appointments/{appointmentId}/reschedule', {
              ...appointment,
              body: { starts_at: hoursFromNow(26), ends_at: hoursFromNow(27) },
            }),
          )
        ).starts_at,
      ).toBe(hoursFromNow(26));
      const confirmed = await unwrap(
        client().POST('/v1/appointments/{appointmentId}/confirm', { ...appointment, body: { by: 'prospect' } }),
      );
      expect(confirmed.status).toBe('confirmed');
      expect((await unwrap(client().POST('/v1/appointments/{appointmentId}/complete', appointment))).status).toBe(
        'completed',
      );
      const other = await unwrap(
        client().POST('/v1/appointments', {
          body: { inquiry_id: state.secondInquiryId, starts_at: hoursFromNow(30), ends_at: hoursFromNow(31) },
        }),
      );
      const cancelled = await unwrap(
        client().POST('/v1/appointments/{appointmentId}/cancel', {
          params: { path: { appointmentId: other.id } },
          body: { by: 'prospect', reason: 'prospect_declined' },
        }),
      );
      expect(cancelled.status).toBe('cancelled');
    });

    it('creates, lists, reads, allocates and cancels a viewing slot', async () => {
      const property = { params: { path: { propertyId: state.propertyId } } };
      const slot = await unwrap(
        client().POST('/v1/properties/{propertyId}/viewing-slots', {
          ...property,
          body: { starts_at: hoursFromNow(48), ends_at: hoursFromNow(49), capacity: 2 },
        }),
      );
      expect(
        (await unwrap(client().GET('/v1/properties/{propertyId}/viewing-slots', property))).data.map((s) => s.id),
      ).toContain(slot.id);
      const path = { params: { path: { slotId: slot.id } } };
      expect((await unwrap(client().GET('/v1/viewing-slots/{slotId}', path))).capacity).toBe(2);
      await unwrap(client().POST('/v1/viewing-slots/{slotId}/allocate', path));
      expect((await unwrap(client().POST('/v1/viewing-slots/{slotId}/cancel', path))).status).toBe('cancelled');
      expect((await client().POST('/v1/viewing-slots/{slotId}/cancel', path)).response.status).toBe(409);
    });

    it('values the property and lists its comparables', async () => {
      const property = { params: { path: { propertyId: state.propertyId } } };
      const valuation = await client().GET('/v1/properties/{propertyId}/valuation', property);
      expect(valuation.response.status).toBe(200);
      const comparables = await client().GET('/v1/properties/{propertyId}/comparables', property);
      expect(comparables.response.status).toBe(200);
    });
  });
}
