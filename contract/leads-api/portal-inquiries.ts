// Portal inquiries (OpenImmo-Feedback) in the German dialect: the portal's document as
// application/xml (201, a scored inquiry; the same again: 200, the same ids) and the portal's mail
// unchanged as message/rfc822. The typed client sends the bytes as they are (identity body
// serializer, the media type in Content-Type), so the recorder sees and checks every answer.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { unwrap, type LeadsClient } from '@platform/client';
import type { ContractRun } from '../harness.js';

/** One `interessent` of a portal's document (element order as the schema's sequence). */
export interface FeedbackInterest {
  int_id: string;
  vorname: string;
  nachname: string;
  email: string;
  anfrage: string;
}

const escape = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** An OpenImmo-Feedback 1.2.5 document as ImmoScout24 sends it: one `objekt` (`oobj_id`) with one `interessent`. */
export function feedbackXml(oobjId: string, interest: FeedbackInterest): string {
  const el = (name: string, value: string) => `<${name}>${escape(value)}</${name}>`;
  return `<?xml version="1.0" encoding="UTF-8"?>
<openimmo_feedback>
  <version>1.2.7</version>
  <sender><name>ImmoScout24</name><openimmo_anid>IS24-123456</openimmo_anid><datum>28.11.2026</datum><makler_id>987654</makler_id></sender>
  <objekt>${el('portal_unique_id', '1000151234567')}${el('portal_obj_id', '151234567')}${el('oobj_id', oobjId)}<expose_url>https://www.immobilienscout24.de/expose/151234567</expose_url><vermarktungsart>KAUF</vermarktungsart><bezeichnung>Helle Wohnung am Park</bezeichnung><ort>Berlin</ort>
    <interessent>${el('int_id', interest.int_id)}<anrede>Frau</anrede>${el('vorname', interest.vorname)}${el(
      'nachname',
      interest.nachname,
    )}${el('email', interest.email)}<bevorzugt>EMAIL</bevorzugt><wunsch>BESICHTIGUNG</wunsch>${el(
      'anfrage',
      interest.anfrage,
    )}<user_defined_extend><feld><name>datenschutz</name><wert>Ich willige ein, dass ImmoScout24 meine Anfrage an den Anbieter weitergibt.</wert></feld></user_defined_extend></interessent>
  </objekt>
</openimmo_feedback>
`;
}

/** The portal's mail, raw (RFC 5322): multipart/mixed, a text part and the document as a base64 attachment (none: `xml` undefined). */
export function feedbackMail(xml: string | undefined): string {
  const boundary = '----=_Part_4711_0815.1764320000000';
  const attachment =
    xml === undefined
      ? []
      : [
          `--${boundary}`,
          'Content-Type: application/xml; name="anfrage.xml"',
          'Content-Transfer-Encoding: base64',
          'Content-Disposition: attachment; filename="anfrage.xml"',
          '',
          ...(Buffer.from(xml, 'utf8')
            .toString('base64')
            .match(/.{1,76}/g) ?? []),
          '',
        ];
  return [
    'From: ImmoScout24 <noreply@immobilienscout24.de>',
    'To: makler@example.de',
    'Subject: =?UTF-8?Q?Neue_Kontaktanfrage_zu_Ihrem_Objekt?=',
    'Date: Sat, 28 Nov 2026 09:12:00 +0100',
    `Message-ID: <${randomUUID()}@immobilienscout24.de>`,
    'MIME-Version: 1.0',
    `Content-Type: multipart/mixed; boundary="${boundary}"`,
    '',
    `--${boundary}`,
    'Content-Type: text/plain; charset=UTF-8',
    'Content-Transfer-Encoding: 8bit',
    '',
    'Sie haben eine neue Anfrage zu Ihrem Objekt erhalten. Die Daten finden Sie im Anhang.',
    '',
    ...attachment,
    `--${boundary}--`,
    '',
  ].join('\r\n');
}

/** Posts a document or a mail to the import through the typed client, the body sent unchanged. */
export function postFeedback(leads: LeadsClient, body: string, contentType: 'application/xml' | 'message/rfc822') {
  return leads.POST('/leads/v1/portal-anfragen', {
    body,
    bodySerializer: (raw: string) => raw,
    headers: { 'content-type': contentType },
  });
}

/** A portal inquiry whose portal id is new in every run (the account is shared by the suites behind the proxy). */
export const interest = (nachname: string): FeedbackInterest => {
  const id = randomUUID().slice(0, 8);
  return {
    int_id: `IS24-${id}`,
    vorname: 'Erika',
    nachname,
    email: `${nachname.toLowerCase()}-${id}@example.de`,
    anfrage: 'Ist die Wohnung noch frei? Ich würde sie gern besichtigen.',
  };
};

export function describePortalInquiries(run: ContractRun): void {
  const leads = () => run.clients.leads;
  let propertyId = '';

  describe('Portal-Anfragen (OpenImmo-Feedback)', () => {
    it('übernimmt das Dokument eines Portals als bewertete Anfrage (201); dasselbe noch einmal: 200, dieselbe Anfrage', async () => {
      const property = await unwrap(
        run.clients.property.POST('/v1/properties', {
          body: {
            type: 'apartment',
            title: 'Wohnung am Park',
            address: { postal_code: '10115', city: 'Berlin' },
            rooms: 2,
            purchase_price_eur: 320_000,
          },
        }),
      );
      await unwrap(
        run.clients.property.POST('/v1/properties/{propertyId}/activate', {
          params: { path: { propertyId: property.id } },
        }),
      );
      propertyId = property.id;
      const erika = interest('Mustermann');
      const xml = feedbackXml(propertyId, erika);

      const first = await postFeedback(leads(), xml, 'application/xml');
      expect(first.response.status).toBe(201);
      const [anfrage] = first.data!.anfragen;
      expect(first.data!.anfragen).toHaveLength(1);
      expect(anfrage).toMatchObject({ immobilie_id: propertyId, nachricht: erika.anfrage });
      expect(anfrage!.bewertung.kriterien.length).toBeGreaterThan(0);
      const prospect = await unwrap(
        leads().GET('/leads/v1/interessenten/{interessentId}', {
          params: { path: { interessentId: anfrage!.interessent_id } },
        }),
      );
      expect(prospect).toMatchObject({ nachname: 'Mustermann', email: erika.email });

      const again = await postFeedback(leads(), xml, 'application/xml');
      expect(again.response.status).toBe(200);
      expect(again.data!.anfragen.map((a) => a.id)).toEqual([anfrage!.id]);
    });

    it('übernimmt die Mail des Portals unverändert (message/rfc822): eine neue Anfrage, 201', async () => {
      const max = interest('Muster');
      const mail = await postFeedback(leads(), feedbackMail(feedbackXml(propertyId, max)), 'message/rfc822');
      expect(mail.response.status).toBe(201);
      expect(mail.data!.anfragen).toEqual([
        expect.objectContaining({ immobilie_id: propertyId, nachricht: max.anfrage }),
      ]);
      const ids: string[] = [];
      for await (const a of leads().anfragen.list({ immobilie_id: propertyId })) ids.push(a.id);
      expect(ids).toHaveLength(2);
    });

    it('lehnt eine Mail ohne Dokument mit 422 ab', async () => {
      const refused = await postFeedback(leads(), feedbackMail(undefined), 'message/rfc822');
      expect(refused.response.status).toBe(422);
      expect(refused.error).toMatchObject({ code: 'validierung_fehlgeschlagen' });
    });
  });
}
