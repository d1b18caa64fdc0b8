import type { SecurityRoute } from '@platform/testkit';
import type { PropertyTestContext } from './helpers.js';

/** One `interessent` of a fixture; absent fields are left out of the document. */
export interface FixtureInterest {
  int_id?: string;
  anrede?: string;
  vorname?: string;
  nachname?: string;
  tel?: string;
  email?: string;
  bevorzugt?: string[];
  wunsch?: string[];
  anfrage?: string;
  /** `user_defined_extend/feld` name → wert. */
  extend?: Record<string, string>;
}

export interface FixtureObject {
  oobj_id?: string;
  zusatz_refnr?: string;
  portal_obj_id?: string;
  interessenten: FixtureInterest[];
}

const escape = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const el = (name: string, value: string | undefined) =>
  value === undefined ? '' : `<${name}>${escape(value)}</${name}>`;

function interessent(i: FixtureInterest): string {
  const extend = i.extend
    ? `<user_defined_extend>${Object.entries(i.extend)
        .map(([name, wert]) => `<feld>${el('name', name)}${el('wert', wert)}</feld>`)
        .join('')}</user_defined_extend>`
    : '';
  return (
    '\n      <interessent>' +
    el('int_id', i.int_id) +
    el('anrede', i.anrede) +
    el('vorname', i.vorname) +
    el('nachname', i.nachname) +
    el('tel', i.tel) +
    el('email', i.email) +
    (i.bevorzugt ?? []).map((b) => el('bevorzugt', b)).join('') +
    (i.wunsch ?? []).map((w) => el('wunsch', w)).join('') +
    el('anfrage', i.anfrage) +
    extend +
    '</interessent>'
  );
}

/** An OpenImmo-Feedback document as a portal sends it (element order as the schema's sequences). */
export function feedbackXml(objekte: FixtureObject[], sender = 'ImmoScout24'): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<openimmo_feedback>
  <version>1.2.7</version>
  <sender>${el('name', sender)}<openimmo_anid>IS24-123456</openimmo_anid><datum>28.11.2026</datum><makler_id>987654</makler_id></sender>${objekte
    .map(
      (o) =>
        `\n  <objekt>${el('portal_unique_id', '1000' + (o.portal_obj_id ?? '1'))}${el('portal_obj_id', o.portal_obj_id)}${el(
          'oobj_id',
          o.oobj_id,
        )}${el('zusatz_refnr', o.zusatz_refnr)}<expose_url>https://www.immobilienscout24.de/expose/1</expose_url><vermarktungsart>KAUF</vermarktungsart><bezeichnung>Helle Zweizimmerwohnung am Park</bezeichnung><ort>Berlin</ort>${o.interessenten
          .map(interessent)
          .join('')}
  </objekt>`,
    )
    .join('')}
</openimmo_feedback>
`;
}

/** A raw mail as a portal sends it: multipart/mixed, a text part and the document as a base64 attachment (none: `xml` undefined). */
export function feedbackMail(
  xml: string | undefined,
  fileName = 'anfrage.xml',
  attachmentType = 'application/xml',
): Buffer {
  const boundary = '----=_Part_4711_0815.1764320000000';
  const lines = [
    'From: ImmoScout24 <noreply@immobilienscout24.de>',
    'To: makler@example.de',
    'Subject: =?UTF-8?Q?Neue_Kontaktanfrage_zu_Ihrem_Objekt?=',
    'Date: Sat, 28 Nov 2026 09:12:00 +0100',
    'Message-ID: <4711.0815@immobilienscout24.de>',
    'MIME-Version: 1.0',
    `Content-Type: multipart/mixed; boundary="${boundary}"`,
    '',
    `--${boundary}`,
    'Content-Type: text/plain; charset=UTF-8',
    'Content-Transfer-Encoding: 8bit',
    '',
    'Sie haben eine neue Anfrage zu Ihrem Objekt erhalten. Die Daten finden Sie im Anhang.',
    '',
  ];
  if (xml !== undefined)
    lines.push(
      `--${boundary}`,
      `Content-Type: ${attachmentType}; name="${fileName}"`,
      'Content-Transfer-Encoding: base64',
      `Content-Disposition: attachment; filename="${fileName}"`,
      '',
      ...(Buffer.from(xml, 'utf8')
        .toString('base64')
        .match(/.{1,76}/g) ?? []),
      '',
    );
  lines.push(`--${boundary}--`, '');
  return Buffer.from(lines.join('\r\n'), 'utf8');
}

/** Sends a body of the given media type to the import (the tenant's key by default). */
export function sendFeedback(
  ctx: PropertyTestContext,
  body: string | Buffer,
  contentType: string,
  key = ctx.tenant.key,
) {
  return ctx.app.inject({
    method: 'POST',
    url: '/leads/v1/portal-anfragen',
    headers: { apikey: key, 'content-type': contentType },
    payload: body,
  });
}

/** The import's entry for the leads security suite (the suite sends JSON: auth and scope are decided before the body). */
export const portalInquirySecurityRoutes = (): SecurityRoute[] => [
  { method: 'POST', url: '/leads/v1/portal-anfragen', scope: 'leads:write' },
];
