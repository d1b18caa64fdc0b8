import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addKey } from '@platform/testkit';
import { propertyDescriptor } from '../src/descriptor.js';
import {
  propertyWithPhotos,
  startListing,
  startPropertyApp,
  validProperty,
  type PropertyTestContext,
} from './helpers.js';
import { openImmoFeedbackSchemaErrors } from './openimmo-feedback-schema.js';
import { feedbackMail, feedbackXml, sendFeedback, type FixtureInterest } from './portal-inquiries-fixtures.js';

let ctx: PropertyTestContext;
let propertyId: string;
let listingId: string;
let theirPropertyId: string;

const erika: FixtureInterest = {
  int_id: 'IS24-4711',
  anrede: 'Frau',
  vorname: 'Erika',
  nachname: 'Mustermann',
  tel: '+49 30 1234567',
  email: 'Erika.Mustermann@example.de',
  bevorzugt: ['EMAIL'],
  wunsch: ['BESICHTIGUNG'],
  anfrage: 'Ist die Wohnung noch frei? Ich würde sie gern besichtigen.',
  extend: { datenschutz: 'Ich willige ein, dass ImmoScout24 meine Anfrage an den Anbieter weitergibt.' },
};

/** What the import may write: nothing of it changes when it must not. */
async function counts() {
  const p = ctx.db.prisma;
  return {
    prospects: await p.prospect.count(),
    consents: await p.prospectConsent.count(),
    inquiries: await p.inquiry.count(),
    portalInquiries: await p.portalInquiry.count(),
    events: await p.outboxEvent.count(),
  };
}

beforeAll(async () => {
  ctx = await startPropertyApp();
  const created = await ctx.send('POST', '/v1/properties', validProperty());
  propertyId = created.json().id;
  listingId = (await startListing(ctx, await propertyWithPhotos(ctx))).id;
  theirPropertyId = (await ctx.send('POST', '/v1/properties', validProperty(), ctx.other.key)).json().id;
  // A prospect of this account whose address the portal sends in another case.
  await ctx.send('POST', '/leads/v1/interessenten', {
    nachname: 'Bekannt',
    email: 'bekannt@example.de',
    einwilligung: { zweck: 'Newsletter', erteilt_am: '2026-11-01T10:00:00Z' },
  });
});
afterAll(() => ctx.close());

describe('POST /leads/v1/portal-anfragen', () => {
  it('takes a portal inquiry: a new prospect with a portal consent, a scored and explained inquiry; again: 200, the same, nothing written', async () => {
    ctx.clock.now = new Date('2026-11-28T09:00:00Z');
    const xml = feedbackXml([{ oobj_id: propertyId, portal_obj_id: '151234567', interessenten: [erika] }]);
    expect(openImmoFeedbackSchemaErrors(xml)).toEqual([]);
    const before = await counts();
    const res = await sendFeedback(ctx, xml, 'application/xml');
    expect(res.statusCode, res.body).toBe(201);
    const [anfrage] = res.json().anfragen;
    expect(res.json().anfragen).toHaveLength(1);
    expect(anfrage).toMatchObject({
      immobilie_id: propertyId,
      nachricht: erika.anfrage,
      eingegangen_am: '2026-11-28T09:00:00.000Z',
    });
    expect(anfrage.bewertung.kriterien.length).toBeGreaterThan(0);
    expect(anfrage.bewertung.kriterien.every((k: { grund: string }) => k.grund.length > 0)).toBe(true);
    // The portal is named as the inquiry's source, also when it is read later.
    expect(anfrage.quelle).toBe('ImmoScout24');
    expect((await ctx.send('GET', `/leads/v1/anfragen/${anfrage.id}`)).json().quelle).toBe('ImmoScout24');
    expect((await ctx.send('GET', `/leads/v1/anfragen/${anfrage.id}`)).json()).toEqual(anfrage);

    const prospect = (await ctx.send('GET', `/leads/v1/interessenten/${anfrage.interessent_id}`)).json();
    expect(prospect).toMatchObject({
      vorname: 'Erika',
      nachname: 'Mustermann',
      email: 'Erika.Mustermann@example.de',
      telefon: '+49 30 1234567',
      einwilligung: null, // no marketing consent: a portal inquiry is none
    });
    const consents = (await ctx.send('GET', `/leads/v1/interessenten/${anfrage.interessent_id}/einwilligungen`)).json();
    expect(consents.daten).toEqual([
      expect.objectContaining({
        zweck: 'kontaktaufnahme',
        quelle: 'portal',
        zweck_text: erika.extend!.datenschutz,
        double_opt_in: false,
        gueltig: true,
        erteilt_am: '2026-11-28T09:00:00.000Z',
      }),
    ]);
    const events = await ctx.db.prisma.outboxEvent.findMany({
      where: { type: { in: ['inquiry.received', 'inquiry.scored'] } },
      orderBy: { type: 'asc' },
    });
    expect(events.map((e) => JSON.parse(e.payload).data.inquiry_id)).toEqual([anfrage.id, anfrage.id]);
    expect(await counts()).toEqual({
      prospects: before.prospects + 1,
      consents: before.consents + 1,
      inquiries: before.inquiries + 1,
      portalInquiries: before.portalInquiries + 1,
      events: before.events + 2,
    });
    expect(await ctx.db.prisma.portalInquiry.findMany()).toEqual([
      expect.objectContaining({
        portal: 'immoscout24',
        portal_inquiry_id: `${propertyId}:IS24-4711`,
        inquiry_id: anfrage.id,
      }),
    ]);

    const settled = await counts();
    const again = await sendFeedback(ctx, xml, 'text/xml; charset=utf-8');
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json()).toEqual(res.json());
    expect(await counts()).toEqual(settled);
  });

  it("finds the prospect by e-mail regardless of case and resolves a listing id (the feed's openimmo_obid) to its property", async () => {
    const before = await counts();
    const xml = feedbackXml([
      {
        oobj_id: listingId,
        interessenten: [{ int_id: 'IS24-4712', nachname: 'Bekannt', email: 'BEKANNT@Example.DE' }],
      },
    ]);
    const res = await sendFeedback(ctx, xml, 'application/xml');
    expect(res.statusCode, res.body).toBe(201);
    const [anfrage] = res.json().anfragen;
    const listing = (await ctx.send('GET', `/v1/listings/${listingId}`)).json();
    expect(anfrage.immobilie_id).toBe(listing.property_id);
    expect((await ctx.send('GET', `/leads/v1/interessenten/${anfrage.interessent_id}`)).json().email).toBe(
      'bekannt@example.de',
    );
    expect(await counts()).toMatchObject({
      prospects: before.prospects,
      consents: before.consents,
      inquiries: before.inquiries + 1,
    });
  });

  it('names the portal in the consent when the document carries no consent text; a document without int_id is recognised by its content', async () => {
    const xml = feedbackXml(
      [
        {
          zusatz_refnr: propertyId,
          interessenten: [{ nachname: 'Ohne-ID', email: 'ohne-id@example.de', anfrage: 'Preis verhandelbar?' }],
        },
      ],
      'immowelt',
    );
    const first = await sendFeedback(ctx, xml, 'application/xml');
    expect(first.statusCode, first.body).toBe(201);
    const [anfrage] = first.json().anfragen;
    const consents = (await ctx.send('GET', `/leads/v1/interessenten/${anfrage.interessent_id}/einwilligungen`)).json();
    expect(consents.daten[0]).toMatchObject({ quelle: 'portal', zweck_text: expect.stringContaining('immowelt') });
    const settled = await counts();
    const again = await sendFeedback(ctx, xml, 'application/xml');
    expect(again.statusCode).toBe(200);
    expect(again.json().anfragen.map((a: { id: string }) => a.id)).toEqual([anfrage.id]);
    expect(await counts()).toEqual(settled);
    const row = await ctx.db.prisma.portalInquiry.findFirstOrThrow({ where: { inquiry_id: anfrage.id } });
    expect(row.portal_inquiry_id).toMatch(/^sha256:[0-9a-f]{64}$/);
  });

  it('makes a new prospect in this account for an address that only another account knows', async () => {
    const theirs = await ctx.send(
      'POST',
      '/leads/v1/interessenten',
      {
        nachname: 'Fremd',
        email: 'fremd@example.de',
        einwilligung: { zweck: 'x', erteilt_am: '2026-11-01T10:00:00Z' },
      },
      ctx.other.key,
    );
    const xml = feedbackXml([
      { oobj_id: propertyId, interessenten: [{ int_id: 'IS24-4713', nachname: 'Fremd', email: 'fremd@example.de' }] },
    ]);
    const res = await sendFeedback(ctx, xml, 'application/xml');
    expect(res.statusCode, res.body).toBe(201);
    const prospectId = res.json().anfragen[0].interessent_id;
    expect(prospectId).not.toBe(theirs.json().id);
    const row = await ctx.db.prisma.prospect.findUniqueOrThrow({ where: { id: prospectId } });
    expect(row.account_id).toBe(ctx.tenant.accountId);
  });

  it("refuses an unknown object and another account's property alike: 422 in German naming the field, nothing written", async () => {
    for (const oobjId of ['prop_unbekannt', theirPropertyId, 'lst_unbekannt']) {
      const before = await counts();
      const xml = feedbackXml([
        { oobj_id: propertyId, interessenten: [{ int_id: `ok-${oobjId}`, nachname: 'A', email: 'a@example.de' }] },
        { oobj_id: oobjId, interessenten: [{ int_id: `x-${oobjId}`, nachname: 'B', email: 'b@example.de' }] },
      ]);
      const res = await sendFeedback(ctx, xml, 'application/xml');
      expect(res.statusCode).toBe(422);
      expect(res.json()).toEqual({
        code: 'validierung_fehlgeschlagen',
        message: 'Keine Immobilie und kein Inserat dieses Kontos mit dieser ID (objekt[2]/oobj_id).',
        details: [{ feld: 'objekt[2]/oobj_id', grund: 'nicht_erlaubt' }],
      });
      expect(await counts()).toEqual(before);
    }
  });

  it('refuses what is no valid feedback document with 422 in German, never a 500', async () => {
    const valid = feedbackXml([
      { oobj_id: propertyId, interessenten: [{ int_id: 'z', nachname: 'Z', email: 'z@example.de' }] },
    ]);
    const cases: [string, string][] = [
      ['not well-formed', valid.replace('</sender>', '')],
      ['another root', '<?xml version="1.0"?><openimmo><uebertragung/></openimmo>'],
      ['against the schema', valid.replace('<makler_id>987654</makler_id>', '')],
      [
        'a DTD with entities',
        `<?xml version="1.0"?><!DOCTYPE a [<!ENTITY x "xxxxxxxx">]>${valid.replace(/^<\?xml[^>]*>/, '')}`,
      ],
      ['no e-mail address', valid.replace('<email>z@example.de</email>', '')],
      ['empty', ''],
      [
        'more than 50 inquiries',
        feedbackXml([
          {
            oobj_id: propertyId,
            interessenten: Array.from({ length: 51 }, (_, i) => ({
              int_id: `n${i}`,
              nachname: 'N',
              email: `n${i}@example.de`,
            })),
          },
        ]),
      ],
      ['invalid UTF-8', '\xff\xfe<openimmo_feedback/>'],
      [
        'nested deeper than the parser follows',
        `<openimmo_feedback>${'<a>'.repeat(150)}${'</a>'.repeat(150)}</openimmo_feedback>`,
      ],
    ];
    const before = await counts();
    for (const [name, body] of cases) {
      const res = await sendFeedback(
        ctx,
        Buffer.from(body, name === 'invalid UTF-8' ? 'latin1' : 'utf8'),
        'application/xml',
      );
      expect(res.statusCode, `${name}: ${res.body}`).toBe(422);
      expect(res.json().code, name).toBe('validierung_fehlgeschlagen');
      expect(res.json().details.length, name).toBeGreaterThan(0);
    }
    expect(
      (await sendFeedback(ctx, valid.replace('<email>z@example.de</email>', ''), 'application/xml')).json().details,
    ).toEqual([{ feld: 'objekt[1]/interessent[1]/email', grund: 'fehlt' }]);
    expect(await counts()).toEqual(before);
  });

  it("takes the portal's raw mail with the document attached, found by its content, as the document itself", async () => {
    const xml = feedbackXml([
      { oobj_id: propertyId, interessenten: [{ ...erika, int_id: 'IS24-mail-1', email: 'mail@example.de' }] },
    ]);
    const res = await sendFeedback(
      ctx,
      feedbackMail(xml, 'kontakt_20261128.dat', 'application/octet-stream'),
      'message/rfc822',
    );
    expect(res.statusCode, res.body).toBe(201);
    const [anfrage] = res.json().anfragen;
    expect(anfrage).toMatchObject({ immobilie_id: propertyId, nachricht: erika.anfrage });
    // The same inquiry as a document: already there.
    const asDocument = await sendFeedback(ctx, xml, 'application/xml');
    expect(asDocument.statusCode).toBe(200);
    expect(asDocument.json()).toEqual(res.json());
  });

  it('refuses a mail without the document, and one whose attachment is not a feedback document: 422', async () => {
    const before = await counts();
    for (const mail of [
      feedbackMail(undefined),
      feedbackMail('<?xml version="1.0"?><openimmo/>', 'openimmo_feedback.xml'),
    ]) {
      const res = await sendFeedback(ctx, mail, 'message/rfc822');
      expect(res.statusCode, res.body).toBe(422);
      expect(res.json().details).toEqual([{ feld: 'mail/anhang', grund: 'fehlt' }]);
    }
    expect(await counts()).toEqual(before);
  });

  it('accepts only its media types and its sizes: JSON 415, a document over 1 MB 413, a mail up to 10 MB', async () => {
    const json = await ctx.send('POST', '/leads/v1/portal-anfragen', { immobilie_id: propertyId });
    expect(json.statusCode).toBe(415);
    expect(json.json().code).toBe('medientyp_nicht_unterstuetzt');
    const big = feedbackXml([
      {
        oobj_id: propertyId,
        interessenten: [{ nachname: 'Gross', email: 'g@example.de', anfrage: 'x'.repeat(1024 * 1024) }],
      },
    ]);
    const res = await sendFeedback(ctx, big, 'application/xml');
    expect(res.statusCode).toBe(413);
    expect(res.json()).toMatchObject({
      code: 'payload_too_large',
      details: [{ feld: 'body', vorgabe: { max_bytes: 1048576 } }],
    });
    // A mail may be larger (10 MB): one of 2 MB, the document and a photo, is taken.
    const xml = feedbackXml([
      { oobj_id: propertyId, interessenten: [{ int_id: 'gross', nachname: 'Gross', email: 'g@example.de' }] },
    ]);
    const mail = feedbackMail(xml).toString('utf8');
    const photo = [
      '--',
      'Content-Type: image/jpeg; name="foto.jpg"',
      'Content-Transfer-Encoding: base64',
      '',
      ...(Buffer.alloc(1_500_000, 7)
        .toString('base64')
        .match(/.{1,76}/g) ?? []),
      '',
    ].join('\r\n');
    const boundary = /boundary="([^"]+)"/.exec(mail)![1]!;
    const large = Buffer.from(mail.replace(`--${boundary}--`, `--${boundary}${photo.slice(2)}--${boundary}--`));
    expect(large.length).toBeGreaterThan(2_000_000);
    const taken = await sendFeedback(ctx, large, 'message/rfc822');
    expect(taken.statusCode, taken.body).toBe(201);
    const tooLarge = await sendFeedback(
      ctx,
      Buffer.concat([large, Buffer.alloc(9 * 1024 * 1024, 32)]),
      'message/rfc822',
    );
    expect(tooLarge.statusCode).toBe(413);
    expect(tooLarge.json().details[0].vorgabe).toEqual({ max_bytes: 10 * 1024 * 1024 });
    // The document inside a mail is held to the document's own limit.
    const bigInMail = await sendFeedback(ctx, feedbackMail(big), 'message/rfc822');
    expect(bigInMail.statusCode).toBe(422);
    expect(bigInMail.json().details).toEqual([
      { feld: 'mail/anhang', grund: 'zu_lang', vorgabe: { max_bytes: 1048576 }, meldung: expect.any(String) },
    ]);
  });

  it('needs the scope leads:write: a key with leads:read only is refused, nothing written', async () => {
    const reader = await addKey(ctx.db.prisma, ctx.tenant, { service: propertyDescriptor, scopes: ['leads:read'] });
    const before = await counts();
    const xml = feedbackXml([
      { oobj_id: propertyId, interessenten: [{ int_id: 'scope', nachname: 'S', email: 's@example.de' }] },
    ]);
    const res = await sendFeedback(ctx, xml, 'application/xml', reader.key);
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('scope_fehlt');
    expect(await counts()).toEqual(before);
  });

  it('takes one person asking about two objects with the same int_id as two inquiries, and 50 inquiries in one document', async () => {
    const secondId = (await ctx.send('POST', '/v1/properties', validProperty())).json().id as string;
    const person = { int_id: 'IS24-PERSON-1', nachname: 'Zweifach', email: 'zweifach@example.de' };
    const two = await sendFeedback(
      ctx,
      feedbackXml([
        { oobj_id: propertyId, interessenten: [person] },
        { oobj_id: secondId, interessenten: [person] },
      ]),
      'application/xml',
    );
    expect(two.statusCode).toBe(201);
    expect(
      two
        .json()
        .anfragen.map((a: { immobilie_id: string }) => a.immobilie_id)
        .sort(),
    ).toEqual([propertyId, secondId].sort());
    const many = feedbackXml([
      {
        oobj_id: secondId,
        interessenten: Array.from({ length: 50 }, (_, i) => ({
          int_id: `viele-${i}`,
          nachname: 'Viele',
          email: `viele${i}@example.de`,
        })),
      },
    ]);
    const res = await sendFeedback(ctx, many, 'application/xml');
    expect(res.statusCode).toBe(201);
    expect(res.json().anfragen).toHaveLength(50);
  });
});
