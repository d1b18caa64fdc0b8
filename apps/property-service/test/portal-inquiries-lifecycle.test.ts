import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { whileHeld } from '@platform/testkit';
import { startPropertyApp, validProperty, type PropertyTestContext } from './helpers.js';
import { openImmoFeedbackSchemaErrors } from './openimmo-feedback-schema.js';
import { feedbackMail, feedbackXml, sendFeedback } from './portal-inquiries-fixtures.js';

let ctx: PropertyTestContext;
let propertyId: string;

beforeAll(async () => {
  ctx = await startPropertyApp();
  propertyId = (await ctx.send('POST', '/v1/properties', validProperty())).json().id;
});
afterAll(() => ctx.close());

const documentOf = (intId: string, email: string, anfrage = 'Noch frei?') =>
  feedbackXml([{ oobj_id: propertyId, interessenten: [{ int_id: intId, nachname: 'Lebenslauf', email, anfrage }] }]);

describe('portal inquiries over their life', () => {
  it('creates an inquiry sent twice at once only once: the second import waits for the first, then finds it', async () => {
    const first = await sendFeedback(ctx, documentOf('race-0', 'race0@example.de'), 'application/xml');
    const existing = first.json().anfragen[0].id as string;
    const inquiries = await ctx.db.prisma.inquiry.count();
    const { result, waited } = await whileHeld(
      ctx.db,
      async (tx) => {
        // As a first import of `race-1` holds it: the key locked, its row written, not yet committed.
        const name = `portal_inquiries:${ctx.tenant.accountId}:immoscout24:${propertyId}:race-1`;
        await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${name}, 0))`;
        await tx.portalInquiry.create({
          data: {
            account_id: ctx.tenant.accountId,
            portal: 'immoscout24',
            portal_inquiry_id: `${propertyId}:race-1`,
            inquiry_id: existing,
            created_at: new Date(),
          },
        });
      },
      () => sendFeedback(ctx, documentOf('race-1', 'race1@example.de'), 'application/xml'),
    );
    expect(waited).toBe(1);
    expect(result.statusCode, result.body).toBe(200);
    expect(result.json().anfragen.map((a: { id: string }) => a.id)).toEqual([existing]);
    expect(await ctx.db.prisma.inquiry.count()).toBe(inquiries);
  });

  it('after the prospect is erased, the same document brings nothing personal back: 200, the inquiry without its message', async () => {
    const xml = documentOf('erase-1', 'loeschen@example.de', 'Bitte rufen Sie mich an.');
    const created = (await sendFeedback(ctx, xml, 'application/xml')).json().anfragen[0];
    expect(
      (await ctx.send('POST', `/leads/v1/interessenten/${created.interessent_id}/loeschung`)).statusCode,
    ).toBeLessThan(300);
    const row = await ctx.db.prisma.portalInquiry.findFirstOrThrow({ where: { inquiry_id: created.id } });
    expect(row).toEqual({
      account_id: ctx.tenant.accountId,
      portal: 'immoscout24',
      portal_inquiry_id: `${propertyId}:erase-1`,
      inquiry_id: created.id,
      created_at: expect.any(Date),
    });
    const again = await sendFeedback(ctx, xml, 'application/xml');
    expect(again.statusCode).toBe(200);
    expect(again.json().anfragen).toEqual([expect.objectContaining({ id: created.id, nachricht: null })]);
    expect(await ctx.db.prisma.prospect.count({ where: { email: 'loeschen@example.de' } })).toBe(0);
  });

  it('removes the portal inquiry with its inquiry (foreign key, on delete cascade)', async () => {
    const created = (await sendFeedback(ctx, documentOf('cascade-1', 'cascade@example.de'), 'application/xml')).json()
      .anfragen[0];
    await ctx.db.prisma.inquiry.delete({ where: { id: created.id } });
    expect(await ctx.db.prisma.portalInquiry.count({ where: { inquiry_id: created.id } })).toBe(0);
  });

  it('reads a document in ISO-8859-1 as its declaration says, umlauts intact', async () => {
    const xml = documentOf('latin-1', 'latin@example.de', 'Grüße aus Köln, ist die Wohnung noch verfügbar?').replace(
      'encoding="UTF-8"',
      'encoding="ISO-8859-1"',
    );
    expect(openImmoFeedbackSchemaErrors(xml)).toEqual([]);
    const res = await sendFeedback(ctx, Buffer.from(xml, 'latin1'), 'application/xml');
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().anfragen[0].nachricht).toBe('Grüße aus Köln, ist die Wohnung noch verfügbar?');
  });

  it('takes a mail whose text is the document itself (inline)', async () => {
    const xml = documentOf('inline-1', 'inline@example.de');
    const mail = Buffer.from(
      [
        'From: immowelt <anfragen@immowelt.de>',
        'To: makler@example.de',
        'Subject: Anfrage',
        'MIME-Version: 1.0',
        'Content-Type: text/plain; charset=UTF-8',
        'Content-Transfer-Encoding: 8bit',
        '',
        xml,
      ].join('\r\n'),
    );
    const res = await sendFeedback(ctx, mail, 'message/rfc822');
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().anfragen[0].immobilie_id).toBe(propertyId);
  });

  it('answers a mail that is no mail at all with 422, never a 500', async () => {
    for (const body of [Buffer.alloc(0), Buffer.from([0xff, 0x00, 0x13, 0x37]), feedbackMail('<openimmo_feedback>')]) {
      const res = await sendFeedback(ctx, body, 'message/rfc822');
      expect(res.statusCode, res.body).toBe(422);
    }
  });
});
