import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SftpServer } from '@platform/testkit';
import { runPortalTransfer } from '../src/portals/index.js';
import { AGENCY_CONTACT, type PropertyTestContext } from './helpers.js';

/** The `portal` settings of a channel pushing to the test SFTP server. */
export const sftpSettings = (server: SftpServer, over: Record<string, unknown> = {}) => ({
  transfer: 'sftp',
  host: server.host,
  port: server.port,
  username: server.username,
  secret: server.privateKey,
  folder: server.folder,
  anbieternr: 'ANB-42',
  ...over,
});

let channels = 0;

/** Creates a portal channel (with the agency contact); resolves to the response. */
export function createPortalChannel(ctx: PropertyTestContext, portal: object, key = ctx.tenant.key) {
  return ctx.send(
    'POST',
    '/v1/channels',
    { type: 'portal', name: `Portal ${++channels}`, contact: AGENCY_CONTACT, portal },
    key,
  );
}

/** Runs the channel's transfer now, as the worker's job would, on the test clock. */
export const runTransfer = (ctx: PropertyTestContext, channelId: string) =>
  runPortalTransfer(
    {
      db: ctx.db.prisma,
      now: ctx.clock.now,
      storage: ctx.storage,
      secrets: ctx.webhooks.secrets,
      targets: ctx.webhooks.policy,
    },
    channelId,
  );

/** What Info-ZIP's `unzip` reads of a ZIP file: its entry names, its integrity and one entry's bytes. */
export function unzipped(zip: Buffer) {
  const dir = mkdtempSync(join(tmpdir(), 'portal-zip-'));
  const file = join(dir, 'transfer.zip');
  writeFileSync(file, zip);
  try {
    execFileSync('unzip', ['-tq', file]); // throws on a damaged archive
    const names = execFileSync('unzip', ['-Z1', file], { encoding: 'utf8' }).split('\n').filter(Boolean);
    const entries = new Map(
      names.map((name) => [name, execFileSync('unzip', ['-p', file, name], { maxBuffer: 1 << 28 })]),
    );
    return {
      names,
      entry: (name: string) => entries.get(name),
      xml: entries.get('openimmo.xml')?.toString('utf8') ?? '',
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The `pfad` of every INTERN attachment and the `aktionart`/object id of every `immobilie` of a document. */
export function documentParts(xml: string) {
  const paths = [...xml.matchAll(/<anhang location="INTERN"[^>]*>[\s\S]*?<pfad>([^<]+)<\/pfad>/g)].map((m) => m[1]!);
  const objects = [...xml.matchAll(/<immobilie>[\s\S]*?<\/immobilie>/g)].map((m) => ({
    aktion: /aktionart="(\w+)"/.exec(m[0])?.[1],
    objectId: /<openimmo_obid>([^<]+)<\/openimmo_obid>/.exec(m[0])?.[1],
  }));
  const umfang = /umfang="(\w+)"/.exec(xml)?.[1];
  return { paths, objects, umfang };
}
