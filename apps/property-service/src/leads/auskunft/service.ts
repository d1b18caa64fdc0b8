import { inSnapshot, type Db } from '@platform/db';
import { toSeite } from '@platform/http';
import type { ApiContext } from '@platform/service';
import { eventsNaming } from '@platform/webhooks';
import type { appointmentsOfProspect } from '../../appointments/index.js';
import { consentHistoryOf } from '../consent/index.js';
import { inquiriesOfProspect } from '../inquiries/index.js';
import { outreachOfProspect } from '../outreach/index.js';
import { prospectNotFound, prospectRepository, toProspect } from '../prospects/index.js';
import { logTimeRange } from '../time-range.js';
import { plannedErasureDay, toAuskunftRecordView, toTagesZaehler, toTermin, toTreffer } from './mapping.js';
import { renderAuskunftInSandbox } from './render.js';
import { auskunftRecordPage, insertAuskunftRecord } from './repository.js';
import type { Auskunft, AuskunftFormat, AuskunftRecordQuery } from './schemas.js';

/** Who asks: the key's account, application and key (kept in the audit record). */
export interface AuskunftRequester {
  accountId: string;
  applicationId: string;
  keyId: string;
}

/** The event data fields that name a prospect or what hangs off it. */
const NAMING_FIELDS = ['interessent_id', 'inquiry_id', 'appointment_id'] as const;

/**
 * The prospect's viewing appointments, passed in by the app: appointments import leads, so leads
 * do not import appointments (as with retention's `EndViewings`).
 */
export type AppointmentsOf = typeof appointmentsOfProspect;

/** Everything held about the account's prospect, read in one snapshot; 404 when unknown, another account's or forgotten. */
async function collect(
  db: Db,
  appointmentsOf: AppointmentsOf,
  accountId: string,
  prospectId: string,
  at: Date,
): Promise<Auskunft> {
  return inSnapshot(db, async (tx) => {
    const row = await prospectRepository.find(tx, accountId, prospectId, prospectNotFound);
    if (row.anonymised_at !== null) throw prospectNotFound(); // nothing personal is held any more
    const prospect = toProspect(row);
    const einwilligungen = await consentHistoryOf(tx, accountId, prospectId);
    const anfragen = await inquiriesOfProspect(tx, accountId, prospectId);
    const appointments = await appointmentsOf(tx, accountId, prospectId);
    const outreach = await outreachOfProspect(tx, accountId, prospectId);
    const ids = [prospectId, ...anfragen.map((a) => a.id), ...appointments.map((a) => a.id)];
    const events = await eventsNaming(tx, { accountId, service: 'property', fields: NAMING_FIELDS, ids });
    return {
      interessent_id: row.id,
      erstellt_am: at.toISOString(),
      stammdaten: {
        vorname: row.first_name,
        nachname: row.last_name,
        email: row.email,
        telefon: row.phone,
        angelegt_am: prospect.angelegt_am,
        aktualisiert_am: prospect.aktualisiert_am,
        letzte_aktivitaet_am: row.last_activity_at.toISOString(),
      },
      einwilligungen,
      suchprofil: prospect.suchprofil,
      anfragen,
      termine: appointments.map(toTermin),
      treffer: outreach.announcements.map(toTreffer),
      treffer_tageszaehler: outreach.dailyCounts.map(toTagesZaehler),
      ereignisse: events.map((event) => ({
        id: event.id,
        typ: event.type,
        zeitpunkt: event.created_at.toISOString(),
        zustellungen: { zugestellt: event.succeeded, fehlgeschlagen: event.failed, ausstehend: event.pending },
      })),
      aufbewahrung_bis: prospect.aufbewahrung_bis,
      loeschung_geplant_am: plannedErasureDay(row.retention_until),
      eingeschraenkt_seit: prospect.eingeschraenkt_seit,
      widerspruch_seit: prospect.widerspruch_seit,
    };
  });
}

export type AuskunftService = ReturnType<typeof createAuskunftService>;

/** The Auskunft (GDPR Art. 15/20) as JSON or PDF, each export recorded; and the account's log of them. */
export function createAuskunftService({
  db,
  cursors,
  now,
  sandbox,
  appointmentsOf,
}: Pick<ApiContext, 'db' | 'cursors' | 'now' | 'sandbox'> & { appointmentsOf: AppointmentsOf }) {
  const record = (who: AuskunftRequester, prospectId: string, format: AuskunftFormat, at: Date) =>
    insertAuskunftRecord(db, {
      account_id: who.accountId,
      prospect_id: prospectId,
      format,
      application_id: who.applicationId,
      key_id: who.keyId,
      created_at: at,
    });

  return {
    async json(who: AuskunftRequester, prospectId: string): Promise<Auskunft> {
      const at = now();
      const auskunft = await collect(db, appointmentsOf, who.accountId, prospectId, at);
      await record(who, prospectId, 'json', at);
      return auskunft;
    },

    /** The PDF letter, drawn in the sandbox (`render.ts`); recorded only once it is drawn. */
    async pdf(who: AuskunftRequester, prospectId: string): Promise<Buffer> {
      const at = now();
      const auskunft = await collect(db, appointmentsOf, who.accountId, prospectId, at);
      const pdf = await renderAuskunftInSandbox(sandbox, auskunft, who.accountId);
      await record(who, prospectId, 'pdf', at);
      return pdf;
    },

    async list(accountId: string, { limit, cursor, interessent_id, von, bis }: AuskunftRecordQuery) {
      const range = logTimeRange({ von, bis });
      return toSeite(
        await auskunftRecordPage(db, {
          accountId,
          cursors,
          cursor,
          limit,
          prospectId: interessent_id,
          range,
          map: toAuskunftRecordView,
        }),
      );
    },
  };
}
