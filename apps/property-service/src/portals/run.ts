import { accountName } from '@platform/accounts';
import { inTransaction, newId, type Db } from '@platform/db';
import type { BlobStorage } from '@platform/storage';
import { deliverFile, DropError } from '@platform/transfer';
import { eventEmitter, type SsrfPolicy } from '@platform/webhooks';
import {
  channelRepository,
  contactOf,
  pinnedDrop,
  portalAccountRepository,
  PortalHostRefused,
  settingsOf,
  type SecretCipher,
} from '../channels/index.js';
import { PROPERTY_EVENTS } from '../events.js';
import { listingRepository, snapshotOf } from '../listings/index.js';
import { portalFileName } from './package-name.js';
import { portalPackage, type PortalItem } from './package.js';
import { portalObjectSql, type CarriedObject, type PortalObjectRow } from './objects-sql.js';
import { reconcileObjects } from './reconcile.js';
import { portalScheduleSql, RETRY_DELAYS_MS } from './schedule-sql.js';
import { portalTransferSql } from './transfers-sql.js';

const emit = eventEmitter('property', PROPERTY_EVENTS);

interface TransferEventData {
  channel_id: string;
  transfer_id: string;
  umfang: 'VOLL' | 'TEIL';
  file_name: string;
  listings: { listing_id: string; property_id: string; aktion: 'CHANGE' | 'DELETE' }[];
}

export interface PortalRunContext {
  db: Db;
  now: Date;
  storage: BlobStorage;
  secrets: Pick<SecretCipher, 'decrypt'>;
  targets: SsrfPolicy;
}

export type PortalRunResult =
  | { outcome: 'not_due' | 'nothing_to_send' }
  | { outcome: 'transferred' | 'failed'; transfer_id: string; umfang: 'VOLL' | 'TEIL'; objects: number };

/**
 * One transfer of a portal channel, if it is due: what the portal should hold is brought in line
 * with the live listings, then the changes (or everything, for a full transfer) go as one ZIP file.
 * A run holds the channel's lease, so two workers never send the same channel's files at once.
 */
export async function runPortalTransfer(ctx: PortalRunContext, channelId: string): Promise<PortalRunResult> {
  const { db, now } = ctx;
  const schedule = await portalScheduleSql.lease(db, channelId, now);
  if (!schedule) return { outcome: 'not_due' };
  const channel = await channelRepository.byId(db, channelId);
  const account = channel && (await portalAccountRepository.find(db, channelId));
  const contact = channel && contactOf(channel);
  if (!channel || !account || !contact) {
    await portalScheduleSql.release(db, channelId);
    return { outcome: 'nothing_to_send' };
  }
  const objects = await reconcileObjects(db, channel, now);
  const full = schedule.full_requested || account.mode === 'voll';
  const sent = full ? objects.filter((o) => o.action === 'CHANGE') : objects.filter((o) => o.state === 'pending');
  if (!full && sent.length === 0) {
    await portalScheduleSql.release(db, channelId);
    return { outcome: 'nothing_to_send' };
  }
  // A full transfer also settles the deletions: the portal keeps only what the file holds.
  const carried: CarriedObject[] = (full ? objects : sent).map((o) => ({
    propertyId: o.property_id,
    version: o.version,
  }));
  const umfang = full ? 'VOLL' : 'TEIL';
  const settings = settingsOf(account, { encrypt: () => '', decrypt: (stored) => ctx.secrets.decrypt(stored) });
  const transferId = newId('ptr', now.getTime());
  const fileName = portalFileName(settings.anbieternr, now, schedule.sequence);
  const listed = await listedObjects(db, sent);
  await portalTransferSql.start(db, {
    id: transferId,
    account_id: channel.account_id,
    channel_id: channelId,
    umfang,
    state: 'pending',
    file_name: fileName,
    objects: sent.length,
    attempt: schedule.attempts + 1,
    started_at: now,
  });
  const eventData: TransferEventData = {
    channel_id: channelId,
    transfer_id: transferId,
    umfang,
    file_name: fileName,
    listings: listed.events,
  };
  try {
    const drop = await pinnedDrop(settings, ctx.targets);
    const firma = (await accountName(db, channel.account_id)) ?? settings.anbieternr;
    const input = {
      anbieternr: settings.anbieternr,
      firma,
      contact,
      generatedAt: now.toISOString(),
      umfang,
      items: listed.items,
      readBlob: async (sha256: string) => {
        const blob = await ctx.storage.get(sha256);
        if (!blob) throw new Error(`a rendition of the listing is missing from storage (${sha256.slice(0, 12)}…)`);
        return blob.stream;
      },
    } as const;
    const { bytes } = await deliverFile(drop, fileName, () => portalPackage(input));
    const at = new Date(Math.max(Date.now(), now.getTime()));
    await inTransaction(db, async (tx) => {
      await portalTransferSql.finish(tx, transferId, { state: 'transferred', bytes, at });
      await portalObjectSql.transferred(tx, channelId, carried, transferId, at);
      await portalScheduleSql.succeeded(tx, channelId, full, at);
      await emit(tx, {
        accountId: channel.account_id,
        type: 'portal_transfer.succeeded',
        data: { ...eventData, transferred_at: at.toISOString() },
        at,
      });
    });
    return { outcome: 'transferred', transfer_id: transferId, umfang, objects: sent.length };
  } catch (error) {
    await recordFailure(ctx, { channel, schedule, transferId, carried, eventData }, error);
    return { outcome: 'failed', transfer_id: transferId, umfang, objects: sent.length };
  }
}

/** The listings of the objects a transfer sends, loaded in one query, as the package and the event name them. */
async function listedObjects(db: Db, sent: readonly PortalObjectRow[]) {
  const rows = await listingRepository.manyWithParts(
    db,
    sent.map((o) => o.listing_id),
  );
  const byId = new Map(rows.map((row) => [row.id, row]));
  const items: PortalItem[] = [];
  const events: TransferEventData['listings'] = [];
  for (const object of sent) {
    const row = byId.get(object.listing_id);
    events.push({ listing_id: object.listing_id, property_id: object.property_id, aktion: object.action });
    if (row)
      items.push({ objectId: object.property_id, action: object.action, listingId: row.id, snapshot: snapshotOf(row) });
  }
  return { items, events };
}

async function recordFailure(
  ctx: PortalRunContext,
  run: {
    channel: { id: string; account_id: string };
    schedule: { attempts: number };
    transferId: string;
    carried: CarriedObject[];
    eventData: TransferEventData;
  },
  error: unknown,
): Promise<void> {
  const { db, now } = ctx;
  const dropError = error instanceof DropError ? error : undefined;
  const attempts = run.schedule.attempts + 1;
  // A host the deployment refuses stays refused; one that does not resolve may resolve again.
  const refused =
    dropError?.permanent === true || (error instanceof PortalHostRefused && !error.why.startsWith('does not resolve'));
  const givenUp = refused || attempts > RETRY_DELAYS_MS.length;
  const reason =
    dropError || error instanceof PortalHostRefused
      ? (error as Error).message
      : `the package could not be built: ${(error as Error).message}`;
  const nextAttemptAt = givenUp ? null : new Date(now.getTime() + RETRY_DELAYS_MS[attempts - 1]!);
  await inTransaction(db, async (tx) => {
    await portalTransferSql.finish(tx, run.transferId, { state: 'failed', reason, at: now });
    await portalObjectSql.failed(tx, run.channel.id, run.carried, reason, givenUp, now);
    await portalScheduleSql.failed(
      tx,
      run.channel.id,
      { attempts, nextAttemptAt, halted: givenUp ? reason : null },
      now,
    );
    await emit(tx, {
      accountId: run.channel.account_id,
      type: 'portal_transfer.failed',
      data: {
        ...run.eventData,
        reason,
        retrying: !givenUp,
        next_attempt_at: nextAttemptAt?.toISOString() ?? null,
      },
      at: now,
    });
  });
}
