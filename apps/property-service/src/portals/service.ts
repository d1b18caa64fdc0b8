import { inTransaction, type Db } from '@platform/db';
import { ApiError } from '@platform/http';
import type { ApiContext } from '@platform/service';
import { channelRepository } from '../channels/index.js';
import type { PropertyEvents } from '../events.js';
import { enqueuePortalTransfer } from './jobs.js';
import { portalObjectSql } from './objects-sql.js';
import { portalScheduleSql } from './schedule-sql.js';
import type { PortalStatus, PortalTransfer } from './schemas.js';
import { portalTransferSql, type PortalTransferRow } from './transfers-sql.js';

export type PortalServiceDeps = Pick<ApiContext<PropertyEvents>, 'db' | 'cursors' | 'now' | 'jobs'>;
export type PortalService = ReturnType<typeof createPortalService>;

const iso = (value: Date | null) => value?.toISOString() ?? null;

function toTransfer(row: PortalTransferRow): PortalTransfer {
  return {
    id: row.id,
    channel_id: row.channel_id,
    umfang: row.umfang as PortalTransfer['umfang'],
    state: row.state,
    file_name: row.file_name,
    objects: row.objects,
    bytes: row.bytes === null ? null : Number(row.bytes),
    reason: row.reason,
    attempt: row.attempt,
    started_at: row.started_at.toISOString(),
    finished_at: iso(row.finished_at),
  };
}

/** The channel, if it is a portal channel of the account (404 unknown, 409 another type). */
async function portalChannel(db: Db, accountId: string, channelId: string) {
  const channel = await channelRepository.find(db, accountId, channelId);
  if (channel.type !== 'portal')
    throw new ApiError('conflict', {
      message: `The channel is of type ${channel.type}: only a portal channel transfers its listings (its consumers pull the feed).`,
    });
  return channel;
}

/** A portal channel's transfers as the API shows them; every read is scoped by the channel's account. */
export function createPortalService({ db, cursors, now, jobs }: PortalServiceDeps) {
  const status = async (accountId: string, channelId: string): Promise<PortalStatus> => {
    await portalChannel(db, accountId, channelId);
    const [schedule, objects] = await Promise.all([
      portalScheduleSql.find(db, channelId),
      portalObjectSql.ofChannel(db, channelId),
    ]);
    return {
      channel_id: channelId,
      full_transfer_due: schedule?.full_requested ?? true,
      failures_in_a_row: schedule?.attempts ?? 0,
      next_attempt_at: schedule && !schedule.halted_reason ? schedule.next_attempt_at.toISOString() : null,
      halted_reason: schedule?.halted_reason ?? null,
      listings: objects.map((o) => ({
        listing_id: o.listing_id,
        property_id: o.property_id,
        aktion: o.action,
        state: o.state,
        reason: o.reason,
        transferred_at: iso(o.transferred_at),
        updated_at: o.updated_at.toISOString(),
      })),
    };
  };

  return {
    status,

    async transfers(accountId: string, channelId: string, { limit, cursor }: { limit: number; cursor?: string }) {
      await portalChannel(db, accountId, channelId);
      const scope = `portal-transfers:${channelId}`;
      const rows = await portalTransferSql.page(
        db,
        channelId,
        limit,
        cursor ? cursors.decode(cursor, scope) : undefined,
      );
      const page = rows.slice(0, limit);
      const last = page.at(-1);
      const hasMore = rows.length > limit;
      return {
        data: page.map(toTransfer),
        page: {
          next_cursor: hasMore && last ? cursors.encode({ createdAt: last.started_at, id: last.id }, scope) : null,
          has_more: hasMore,
        },
      };
    },

    /** A full transfer now, failures forgotten and a halt lifted; the worker runs it at once. */
    async retransfer(accountId: string, channelId: string): Promise<PortalStatus> {
      const at = now();
      await inTransaction(db, async (tx) => {
        await portalChannel(tx, accountId, channelId);
        await portalScheduleSql.restart(tx, { accountId, channelId, at });
      });
      await enqueuePortalTransfer(jobs, channelId, at).catch(() => {}); // the sweeper runs it within a minute otherwise
      return status(accountId, channelId);
    },
  };
}
