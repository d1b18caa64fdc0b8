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
import { portalFileName } from './package-name.js';
import { portalPackage } from './package.js';
import { listedObjects, type TransferEventData } from './listed-objects.js';
import { portalObjectSql, type CarriedObject, type PortalObjectRow } from './objects-sql.js';
import { reconcileObjects } from './reconcile.js';
import { portalScheduleSql, RETRY_DELAYS_MS, type Fence, type PortalScheduleRow } from './schedule-sql.js';
import { portalTransferSql } from './transfers-sql.js';

const emit = eventEmitter('property', PROPERTY_EVENTS);

/** How often a run renews its lease while it uploads. */
const RENEW_EVERY_MS = 60_000;

export interface PortalRunContext {
  db: Db;
  now: Date;
  storage: BlobStorage;
  secrets: Pick<SecretCipher, 'decrypt'>;
  targets: SsrfPolicy;
}

export type PortalRunResult =
  | { outcome: 'not_due' | 'nothing_to_send' }
  | { outcome: 'halted'; reason: string }
  | { outcome: 'transferred' | 'failed'; transfer_id: string; umfang: 'VOLL' | 'TEIL'; objects: number };

/**
 * One transfer of a portal channel, if it is due: what the portal should hold is brought in line
 * with the live listings, then the changes (or everything, for a full transfer) go as one ZIP file.
 * A run holds the channel's lease, so two workers never send the same channel's files at once; a
 * run that breaks before it sends gives the lease back.
 */
export async function runPortalTransfer(ctx: PortalRunContext, channelId: string): Promise<PortalRunResult> {
  const schedule = await portalScheduleSql.lease(ctx.db, channelId, ctx.now);
  if (!schedule) return { outcome: 'not_due' };
  const fence: Fence = { channelId, sequence: schedule.sequence, generation: schedule.generation };
  try {
    await portalTransferSql.interrupted(ctx.db, channelId, ctx.now);
    return await transfer(ctx, schedule, fence);
  } catch (error) {
    await portalScheduleSql.release(ctx.db, fence).catch(() => {});
    throw error;
  }
}

async function transfer(ctx: PortalRunContext, schedule: PortalScheduleRow, fence: Fence): Promise<PortalRunResult> {
  const { db, now } = ctx;
  const channelId = fence.channelId;
  const channel = await channelRepository.byId(db, channelId);
  const account = channel && (await portalAccountRepository.find(db, channelId));
  const contact = channel && contactOf(channel);
  if (!channel || !account || !contact) {
    await portalScheduleSql.release(db, fence);
    return { outcome: 'nothing_to_send' };
  }
  const objects = await reconcileObjects(db, channel, now);
  const pending = objects.filter((o) => o.state === 'pending');
  // `voll` mode sends everything, but only when something changed.
  const full = schedule.full_requested || (account.mode === 'voll' && pending.length > 0);
  const sent = full ? objects.filter((o) => o.action === 'CHANGE') : pending;
  // A full file with nothing in it would empty the portal account (what an agency had there before
  // included): it goes only once the channel has sent something, to take all of that off again.
  const everSent = objects.some((o) => o.last_transfer_id !== null);
  if (sent.length === 0 && (!full || !everSent)) {
    await portalScheduleSql.release(db, fence);
    return { outcome: 'nothing_to_send' };
  }
  let settings;
  try {
    settings = settingsOf(account, ctx.secrets);
  } catch {
    const reason =
      "the import account's stored secret does not decrypt (was WEBHOOK_SECRET_KEY changed?): set the channel's portal.secret again";
    await portalScheduleSql.failed(
      db,
      fence,
      { attempts: schedule.attempts + 1, nextAttemptAt: null, halted: reason },
      now,
    );
    return { outcome: 'halted', reason };
  }
  const listed = await listedObjects(ctx, sent);
  if (listed.unsendable.length > 0)
    await portalObjectSql.unsendable(db, channelId, listed.unsendable, listed.unsendableReason, now);
  // A full transfer also settles the deletions: the portal keeps only what the file holds.
  const carried: CarriedObject[] = [
    ...listed.carried,
    ...(full ? objects.filter((o) => o.action === 'DELETE').map(carriedOf) : []),
  ];
  const umfang = full ? 'VOLL' : 'TEIL';
  const transferId = newId('ptr', now.getTime());
  const fileName = portalFileName(settings.anbieternr, now, schedule.sequence);
  await portalTransferSql.start(db, {
    id: transferId,
    account_id: channel.account_id,
    channel_id: channelId,
    umfang,
    state: 'pending',
    file_name: fileName,
    objects: listed.items.length,
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
  const renewing = setInterval(() => {
    portalScheduleSql.renew(db, fence, new Date()).catch(() => {});
  }, RENEW_EVERY_MS);
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
      await portalScheduleSql.succeeded(tx, fence, full, at);
      await emit(tx, {
        accountId: channel.account_id,
        type: 'portal_transfer.succeeded',
        data: { ...eventData, transferred_at: at.toISOString() },
        at,
      });
    });
    return { outcome: 'transferred', transfer_id: transferId, umfang, objects: listed.items.length };
  } catch (error) {
    await recordFailure(ctx, { channel, schedule, fence, transferId, carried, eventData }, error);
    return { outcome: 'failed', transfer_id: transferId, umfang, objects: listed.items.length };
  } finally {
    clearInterval(renewing);
  }
}

const carriedOf = (o: PortalObjectRow): CarriedObject => ({ propertyId: o.property_id, version: o.version });

async function recordFailure(
  ctx: PortalRunContext,
  run: {
    channel: { id: string; account_id: string };
    schedule: { attempts: number };
    fence: Fence;
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
    await portalObjectSql.failed(tx, run.channel.id, run.carried, { reason, givenUp, transferId: run.transferId }, now);
    await portalScheduleSql.failed(tx, run.fence, { attempts, nextAttemptAt, halted: givenUp ? reason : null }, now);
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
