// What the Auskunft tests share: a prospect with something in every section, and the two exports.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import type { Tenant } from '@platform/testkit';
import { activeProperty, type PropertyTestContext } from './helpers.js';
import { runOpenOutreach } from './outreach-helpers.js';

export const person = (name: string) => ({
  vorname: `${name}vorname`,
  nachname: `${name}nachname`,
  email: `${name.toLowerCase()}@example.de`,
  telefon: `+49 30 ${name.length}00 ${name.charCodeAt(0)}`,
  einwilligung: { zweck: 'Kontakt', erteilt_am: '2026-11-01T10:00:00Z' },
  suchprofil: { typ: ['apartment'], orte: ['Berlin'], zimmer_min: 2, kaufpreis_max_eur: 450000 },
});

/** The agent who shows the property (one per prospect, as a host has one viewing at a time): never in the Auskunft. */
export const HOST = 'Harald Gastgeber';
let hosts = 0;

export type FullProspect = Awaited<ReturnType<ReturnType<typeof auskunftFixtures>['fullProspect']>>;

/** The Auskunft's requests and a prospect with something in every section, for one test app. */
export function auskunftFixtures(ctx: PropertyTestContext) {
  const send = (method: string, url: string, body: unknown, tenant: Tenant) => ctx.send(method, url, body, tenant.key);

  async function inquire(tenant: Tenant, body: Record<string, unknown>) {
    const res = await send('POST', '/leads/v1/anfragen', body, tenant);
    expect(res.statusCode).toBe(201);
    return res.json() as { id: string; interessent_id: string };
  }

  async function ok(method: string, url: string, body: unknown, tenant: Tenant) {
    const res = await send(method, url, body, tenant);
    expect(res.statusCode, res.body).toBeLessThan(300);
    return res.json();
  }

  /**
   * Two inquiries (one with a message), a marketing consent given and withdrawn, two Treffer while
   * it held (one announced, one dropped over a daily bound of 1), an appointment with a host,
   * confirmed, moved and confirmed again, and a restriction.
   */
  async function fullProspect(tenant: Tenant, name: string) {
    const [first, second] = [await activeProperty(ctx, tenant.key), await activeProperty(ctx, tenant.key)];
    const a = await inquire(tenant, {
      immobilie_id: first,
      interessent: person(name),
      nachricht: `Nachricht von ${name}`,
    });
    ctx.clock.now = new Date(ctx.clock.now.getTime() + 60_000); // the second inquiry a minute later
    const b = await inquire(tenant, { immobilie_id: second, interessent_id: a.interessent_id });
    const id = a.interessent_id;
    const consent = await ok(
      'POST',
      `/leads/v1/interessenten/${id}/einwilligungen`,
      { zweck: 'marketing', quelle: 'telefon', erteilt_am: '2026-11-02T10:00:00Z', textversion: 'v1' },
      tenant,
    );
    await ok('PUT', '/leads/v1/einstellungen/treffer', { treffer_schwelle: 70, treffer_pro_tag: 1 }, tenant);
    const matched = [await activeProperty(ctx, tenant.key), await activeProperty(ctx, tenant.key)];
    for (const property of matched) await runOpenOutreach(ctx, property);
    await ok('POST', `/leads/v1/interessenten/${id}/einwilligungen/${consent.id}/widerruf`, undefined, tenant);
    const at = (hour: number) => `2027-01-20T${String(hour).padStart(2, '0')}:00:00.000Z`;
    const times = (hour: number) => ({ starts_at: at(hour), ends_at: at(hour + 1) });
    const appointment = await ok(
      'POST',
      '/v1/appointments',
      { inquiry_id: a.id, host: `${HOST} ${++hosts}`, ...times(9) },
      tenant,
    );
    const act = (action: string, body: unknown) =>
      ok('POST', `/v1/appointments/${appointment.id}/${action}`, body, tenant);
    await act('confirm', { by: 'prospect' });
    await act('reschedule', times(14));
    await act('confirm', { by: 'agent' });
    await ok('POST', `/leads/v1/interessenten/${id}/einschraenkung`, undefined, tenant);
    return {
      id,
      inquiries: [a.id, b.id],
      consent: consent.id as string,
      appointment: appointment.id as string,
      matched,
    };
  }

  const auskunft = (id: string, key = ctx.tenant.key) =>
    ctx.send('GET', `/leads/v1/interessenten/${id}/auskunft`, undefined, key);
  const auskunftPdf = (id: string, key = ctx.tenant.key) =>
    ctx.send('GET', `/leads/v1/interessenten/${id}/auskunft/pdf`, undefined, key);

  return { fullProspect, inquire, auskunft, auskunftPdf };
}

/** The PDF's text, whitespace folded (pdftotext). */
export const pdfText = (pdf: Buffer) => {
  const dir = mkdtempSync(join(tmpdir(), 'auskunft-'));
  try {
    writeFileSync(join(dir, 'a.pdf'), pdf);
    return execFileSync('pdftotext', [join(dir, 'a.pdf'), '-'], { encoding: 'utf8' }).replace(/\s+/g, ' ');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
};
