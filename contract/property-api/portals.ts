// A portal channel end to end: created against a real SFTP server (sshd), the listing published on
// it and pushed by the worker as an OpenImmo ZIP (openimmo.xml valid against the official XSD, the
// photos inside), followed in portal-status and transfers, sent again in full on a retransfer,
// taken off with a DELETE on withdrawal; the portal's inquiry for the pushed object comes back in
// through the leads API's OpenImmo-Feedback import.
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unwrap } from '@platform/client';
import { startSftpServer, until, type SftpServer } from '@platform/testkit';
import type { ContractRun } from '../harness.js';
import { feedbackXml, interest, postFeedback } from '../leads-api/portal-inquiries.js';
import type { PropertyState } from './state.js';

/** The official OpenImmo 1.2.7b schema, vendored beside the service's tests with its terms. */
const OPENIMMO_XSD = fileURLToPath(
  new URL('../../apps/property-service/test/validation/openimmo/openimmo_127b.xsd', import.meta.url),
);

/** What `xmllint --schema` says of a document against the official XSD: `[]` when it is valid. */
function openImmoSchemaErrors(xml: string): string[] {
  const run = spawnSync('xmllint', ['--noout', '--schema', OPENIMMO_XSD, '-'], { input: xml, encoding: 'utf8' });
  if (run.error) throw run.error;
  if (run.status === 0) return [];
  if (run.status !== 3 && run.status !== 1) throw new Error(`xmllint exited ${run.status}: ${run.stderr}`);
  return run.stderr.split('\n').filter((line) => line.trim() !== '' && !line.endsWith('fails to validate'));
}

/** A ZIP file as Info-ZIP's `unzip` reads it (a damaged archive throws): its entry names and bytes. */
function unzipped(zip: Buffer) {
  const dir = mkdtempSync(join(tmpdir(), 'contract-portal-zip-'));
  const file = join(dir, 'transfer.zip');
  writeFileSync(file, zip);
  try {
    execFileSync('unzip', ['-tq', file]);
    const names = execFileSync('unzip', ['-Z1', file], { encoding: 'utf8' }).split('\n').filter(Boolean);
    const entries = new Map(
      names.map((name) => [name, execFileSync('unzip', ['-p', file, name], { maxBuffer: 1 << 28 })]),
    );
    return { names, entry: (name: string) => entries.get(name), xml: entries.get('openimmo.xml')?.toString() ?? '' };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
const umfangOf = (xml: string) => /umfang="(\w+)"/.exec(xml)?.[1];
const objectsOf = (xml: string) =>
  [...xml.matchAll(/<immobilie>[\s\S]*?<\/immobilie>/g)].map((m) => ({
    aktion: /aktionart="(\w+)"/.exec(m[0])?.[1],
    objectId: /<openimmo_obid>([^<]+)<\/openimmo_obid>/.exec(m[0])?.[1],
  }));

export function describePortals(run: ContractRun, state: PropertyState): void {
  const client = () => run.clients.property;
  let sftp: SftpServer;
  let channelId = '';
  const channel = () => ({ params: { path: { channelId } } });
  const zips = () => sftp.list().filter((name) => name.endsWith('.zip'));
  const transfers = async () => (await unwrap(client().GET('/v1/channels/{channelId}/transfers', channel()))).data;
  /**
   * Waits until `count` transfers are complete; resolves to those, newest first. The worker sends at
   * once and retries a failed attempt after a minute (the sweeper): one lost connection on a busy
   * machine still passes.
   */
  const transferred = async (count: number) => {
    let seen: Awaited<ReturnType<typeof transfers>> = [];
    return until(async () => {
      seen = await transfers();
      const done = seen.filter((t) => t.state === 'transferred');
      return done.length >= count ? done : undefined;
    }, 90_000).catch(() => {
      throw new Error(`not ${count} transfers complete in 90 s: ${JSON.stringify(seen)}`);
    });
  };

  beforeAll(async () => void (sftp = await startSftpServer()));
  afterAll(() => sftp?.stop());

  describe('portal channels: the push and the inquiries back', () => {
    it('creates a portal channel after logging in to its SFTP server; the secret is never shown', async () => {
      const created = await unwrap(
        client().POST('/v1/channels', {
          body: {
            type: 'portal',
            name: 'Portal (SFTP)',
            contact: { name: 'Vertrieb', email: 'vertrieb@agentur.example' },
            portal: {
              transfer: 'sftp',
              host: sftp.host,
              port: sftp.port,
              username: sftp.username,
              secret: sftp.privateKey,
              folder: sftp.folder,
              anbieternr: 'ANB-42',
            },
          },
        }),
      );
      channelId = created.id;
      expect(created.portal).toMatchObject({ transfer: 'sftp', port: sftp.port, anbieternr: 'ANB-42', mode: 'teil' });
      expect(JSON.stringify(created)).not.toContain(sftp.privateKey.split('\n')[1]!);
      expect(sftp.list()).toEqual([]); // the login's probe file is gone
    });

    it('pushes a published listing as a full OpenImmo ZIP: the XML valid against the official XSD, every photo inside', async () => {
      const listing = { params: { path: { listingId: state.listingId } } };
      await unwrap(client().POST('/v1/listings/{listingId}/publish', { ...listing, body: { channels: [channelId] } }));
      const [sent] = await transferred(1);
      expect(sent).toMatchObject({ umfang: 'VOLL', objects: 1 });
      expect(zips()).toEqual([sent!.file_name]);
      expect(sent!.file_name).toMatch(/^ANB-42_\d{14}_\d+\.zip$/);
      const file = sftp.readFile(sent!.file_name);
      expect(sent!.bytes).toBe(file.length);

      const zip = unzipped(file);
      expect(openImmoSchemaErrors(zip.xml)).toEqual([]);
      expect(umfangOf(zip.xml)).toBe('VOLL');
      expect(objectsOf(zip.xml)).toEqual([{ aktion: 'CHANGE', objectId: state.propertyId }]);
      const paths = [...zip.xml.matchAll(/<anhang location="INTERN"[^>]*>[\s\S]*?<pfad>([^<]+)<\/pfad>/g)].map(
        (m) => m[1]!,
      );
      expect(paths.length).toBeGreaterThan(0);
      for (const path of paths) {
        const bytes = zip.entry(path);
        expect(bytes, path).toBeDefined();
        expect(path).toContain(sha256(bytes!)); // under its content address: the rendition's bytes
      }
      expect(zip.names.sort()).toEqual(['openimmo.xml', ...new Set(paths)].sort());

      const status = await unwrap(client().GET('/v1/channels/{channelId}/portal-status', channel()));
      expect(status).toMatchObject({ channel_id: channelId, full_transfer_due: false, halted_reason: null });
      expect(status.listings).toEqual([
        expect.objectContaining({
          listing_id: state.listingId,
          property_id: state.propertyId,
          aktion: 'CHANGE',
          state: 'transferred',
        }),
      ]);
      // …and the event says so.
      const event = await until(
        async () =>
          run.receiver.received
            .map((r) => JSON.parse(r.raw.toString()) as { type: string; data: { file_name?: string } })
            .find((e) => e.type === 'portal_transfer.succeeded' && e.data.file_name === sent!.file_name),
        30_000,
      );
      expect(event.data).toMatchObject({ channel_id: channelId, umfang: 'VOLL' });
    });

    it('sends everything again in full on a retransfer (202), as a second file', async () => {
      const asked = await client().POST('/v1/channels/{channelId}/retransfer', channel());
      expect(asked.response.status).toBe(202);
      expect(asked.data!.full_transfer_due).toBe(true);
      const [newest, first] = await transferred(2);
      expect(newest).toMatchObject({ umfang: 'VOLL', objects: 1 });
      expect(newest!.file_name).not.toBe(first!.file_name);
      expect(zips()).toEqual([first!.file_name, newest!.file_name].sort());
      const zip = unzipped(sftp.readFile(newest!.file_name));
      expect(openImmoSchemaErrors(zip.xml)).toEqual([]);
      expect(umfangOf(zip.xml)).toBe('VOLL');
      expect(objectsOf(zip.xml)).toEqual([{ aktion: 'CHANGE', objectId: state.propertyId }]);
    });

    it("takes the portal's inquiry for the pushed object back in: a scored inquiry of its property (201)", async () => {
      const [pushed] = objectsOf(unzipped(sftp.readFile(zips()[0]!)).xml);
      const erika = interest('Portal');
      const imported = await postFeedback(run.clients.leads, feedbackXml(pushed!.objectId!, erika), 'application/xml');
      expect(imported.response.status).toBe(201);
      expect(imported.data!.anfragen).toEqual([
        expect.objectContaining({ immobilie_id: state.propertyId, nachricht: erika.anfrage }),
      ]);
      expect(imported.data!.anfragen[0]!.bewertung.kriterien.length).toBeGreaterThan(0);
    });

    it('takes the listing off the portal when it is withdrawn: a partial file with DELETE', async () => {
      const listing = { params: { path: { listingId: state.listingId } } };
      await unwrap(client().POST('/v1/listings/{listingId}/withdraw', { ...listing, body: { channels: [channelId] } }));
      const [newest] = await transferred(3);
      expect(newest).toMatchObject({ umfang: 'TEIL', objects: 1 });
      const zip = unzipped(sftp.readFile(newest!.file_name));
      expect(openImmoSchemaErrors(zip.xml)).toEqual([]);
      expect(objectsOf(zip.xml)).toEqual([{ aktion: 'DELETE', objectId: state.propertyId }]);
      const status = await unwrap(client().GET('/v1/channels/{channelId}/portal-status', channel()));
      expect(status.listings).toEqual([expect.objectContaining({ aktion: 'DELETE', state: 'transferred' })]);
    });
  });
}
