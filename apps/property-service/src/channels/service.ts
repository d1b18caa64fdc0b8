import { randomBytes } from 'node:crypto';
import { inTransaction, isUniqueViolation, newId, type Db } from '@platform/db';
import { ApiError, applyMergePatch, changedPaths, compileBodyValidator } from '@platform/http';
import type { ApiContext } from '@platform/service';
import type { SsrfPolicy } from '@platform/webhooks';
import type { PropertyEvents } from '../events.js';
import { assertPortalReachable } from './portal-connection.js';
import {
  portalAccountRepository,
  settingsOf,
  viewOf,
  type PortalAccountRow,
  type SecretCipher,
} from './portal-repository.js';
import { withDefaults, type PortalSettings } from './portal-schemas.js';
import { channelRepository, contactOf, type ChannelRow } from './repository.js';
import {
  ChannelFieldsSchema,
  type AgencyContactInput,
  type Channel,
  type ChannelFields,
  type ChannelInput,
  type ChannelPatch,
} from './schemas.js';

/**
 * How many listings are live on each of the given channels (absent: none). The publications are the
 * listings' table: the app passes listings/' query in, so that channels imports nothing of listings
 * (listings publish onto channels and ask channels, not the other way round).
 */
export type LiveListingCounts = (db: Db, channelIds: readonly string[]) => Promise<Map<string, number>>;

/**
 * A portal channel's import account was created or changed: its transfers start over (a full
 * transfer, a halted channel resumed). The portals' schedule is not channels' table: the app passes it in.
 */
export type PortalAccountChanged = (
  tx: Db,
  change: { accountId: string; channelId: string; at: Date },
) => Promise<void>;

export type ChannelServiceDeps = Pick<
  ApiContext<PropertyEvents>,
  'db' | 'cursors' | 'now' | 'publicBaseUrl' | 'emit'
> & {
  liveCounts: LiveListingCounts;
  /** Encrypts the import accounts' secrets at rest. */
  cipher: SecretCipher;
  /** Which hosts a portal account may name (the webhooks' rule against private targets). */
  targets: SsrfPolicy;
  portalAccountChanged: PortalAccountChanged;
  /** How many listings a portal channel's portal may still hold (its deletions not transferred yet): the portals' table. */
  portalStillHolds: (tx: Db, channelId: string) => Promise<number>;
};
export type ChannelService = ReturnType<typeof createChannelService>;

/** Where the public feeds are: the path segment after it is a feed token, a secret (never logged). */
export const FEEDS_PATH = '/public/v1/feeds/';
/** The public path of a channel's feed (no key: the token is the secret). */
export const feedPath = (token: string) => `${FEEDS_PATH}${token}/listings`;

/** A new feed token: 24 random bytes, URL-safe (32 characters). */
const newFeedToken = () => randomBytes(24).toString('base64url');

const nameTaken = () => new ApiError('conflict', { message: 'The account already has a channel of this name.' });
const validFields = compileBodyValidator<ChannelFields>(ChannelFieldsSchema);

/** The contact's columns; `null` clears them all. */
function contactColumns(contact: AgencyContactInput | null | undefined) {
  return {
    contact_name: contact?.name ?? null,
    contact_company: contact?.company ?? null,
    contact_email: contact?.email ?? null,
    contact_phone: contact?.phone ?? null,
  };
}

/**
 * The settings a change is checked with: another server (host, port or transfer) has another host
 * key, so the old one is forgotten and the new one learnt, unless the change names it.
 */
function relearnHostKey(portal: { base?: PortalSettings; next: PortalSettings }, patch: ChannelPatch): PortalSettings {
  const { base, next } = portal;
  const moved = !base || base.host !== next.host || base.port !== next.port || base.transfer !== next.transfer;
  return moved && !patch.portal?.host_key_fingerprint ? { ...next, host_key_fingerprint: undefined } : next;
}

/** A portal channel has its import account, no other channel has one. */
function assertPortalFits(type: ChannelRow['type'], portal: unknown): void {
  if (type === 'portal' && !portal)
    throw new ApiError('validation_failed', {
      message:
        "A portal channel needs the portal's import account (`portal`: transfer, host, username, secret, anbieternr).",
      details: [{ field: 'portal', reason: 'missing' }],
    });
  if (type !== 'portal' && portal)
    throw new ApiError('validation_failed', {
      message: 'Only a channel of type `portal` has an import account.',
      details: [{ field: 'portal', reason: 'not_allowed' }],
    });
}

/** The account's publication channels; every query is scoped by `account_id`. */
export function createChannelService(deps: ChannelServiceDeps) {
  const { db, cursors, now, publicBaseUrl, emit, liveCounts, cipher, targets, portalAccountChanged, portalStillHolds } =
    deps;
  const toChannel = (row: ChannelRow, live: number, portal: PortalAccountRow | undefined): Channel => ({
    id: row.id,
    type: row.type,
    name: row.name,
    feed_url: `${publicBaseUrl}${feedPath(row.feed_token)}`,
    contact: contactOf(row),
    portal: portal ? viewOf(portal) : null,
    live_listings: live,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  });
  const views = async (rows: readonly ChannelRow[]) => {
    const ids = rows.map((row) => row.id);
    const [counts, portals] = await Promise.all([
      liveCounts(db, ids),
      portalAccountRepository.ofChannels(
        db,
        rows.filter((row) => row.type === 'portal').map((row) => row.id),
      ),
    ]);
    return rows.map((row) => toChannel(row, counts.get(row.id) ?? 0, portals.get(row.id)));
  };
  const view = async (row: ChannelRow) => (await views([row]))[0]!;
  /** The settings a merge patch gives a portal channel, or undefined when the patch leaves them. */
  const patchedPortal = async (accountId: string, id: string, patch: ChannelPatch) => {
    if (patch.portal === undefined) return undefined;
    const current = await channelRepository.find(db, accountId, id);
    assertPortalFits(current.type, patch.portal ?? (current.type === 'portal' ? null : undefined));
    const stored = await portalAccountRepository.find(db, id);
    const base = stored ? settingsOf(stored, cipher) : undefined;
    // Merged as part of the whole channel, so that a refusal names `portal.<field>`.
    const merged = applyMergePatch(
      { name: current.name, contact: contactOf(current), portal: base },
      patch,
      validFields,
    );
    return { base, next: merged.portal! };
  };
  const renaming = async <T>(write: () => Promise<T>): Promise<T> => {
    try {
      return await write();
    } catch (error) {
      if (isUniqueViolation(error)) throw nameTaken();
      throw error;
    }
  };

  return {
    /** A portal channel connects to its import account first: nothing is stored when that fails (422). */
    async create(accountId: string, input: ChannelInput): Promise<Channel> {
      assertPortalFits(input.type, input.portal);
      const portal = input.portal ? await assertPortalReachable(withDefaults(input.portal), targets) : undefined;
      const at = now();
      const row = await renaming(() =>
        inTransaction(db, async (tx) => {
          const inserted = await channelRepository.insert(tx, {
            id: newId('chan', at.getTime()),
            account_id: accountId,
            type: input.type,
            name: input.name,
            feed_token: newFeedToken(),
            ...contactColumns(input.contact),
            created_at: at,
            updated_at: at,
          });
          if (portal) {
            const key = { channelId: inserted.id, accountId };
            await portalAccountRepository.upsert(tx, key, portal, cipher, at);
            await portalAccountChanged(tx, { ...key, at });
          }
          return inserted;
        }),
      );
      return view(row);
    },

    async get(accountId: string, id: string): Promise<Channel> {
      return view(await channelRepository.find(db, accountId, id));
    },

    async list(accountId: string, { limit, cursor }: { limit: number; cursor?: string }) {
      const page = await channelRepository.page(db, accountId, { cursors, cursor, limit, map: (row) => row });
      return { ...page, data: await views(page.data) };
    },

    /** A JSON merge patch of the name and the contact; the merged result is validated as a whole (a contact keeps its name and an e-mail or phone). */
    async update(accountId: string, id: string, patch: ChannelPatch): Promise<Channel> {
      // A changed import account is connected to before anything is written, outside the transaction.
      const portal = await patchedPortal(accountId, id, patch);
      const portalChanged = portal !== undefined && changedPaths(portal.base, portal.next).length > 0;
      const checked = portalChanged ? await assertPortalReachable(relearnHostKey(portal, patch), targets) : undefined;
      const row = await renaming(() =>
        inTransaction(db, async (tx) => {
          const current = await channelRepository.lock(tx, accountId, id);
          // The current fields as an input document (`applyMergePatch` drops their nulls).
          const { portal: _portal, ...ownPatch } = patch;
          const next = applyMergePatch({ name: current.name, contact: contactOf(current) }, ownPatch, validFields);
          if (current.type !== 'website' && contactOf(current) && !next.contact) {
            // Without a contact the OpenImmo document lists nothing, and a portal's full import would delist every listing.
            const live = (await liveCounts(tx, [id])).get(id) ?? 0;
            if (live > 0)
              throw new ApiError('conflict', {
                message: `${live} listing(s) are live on this OpenImmo channel, which portals show only with its contact; change the contact instead, or withdraw them first.`,
              });
          }
          const columns = { name: next.name, ...contactColumns(next.contact) };
          const changed = (Object.keys(columns) as (keyof typeof columns)[]).some(
            (column) => columns[column] !== current[column],
          );
          if (portalChanged) {
            const at = now();
            await portalAccountRepository.upsert(tx, { channelId: id, accountId }, checked!, cipher, at);
            await portalAccountChanged(tx, { accountId, channelId: id, at });
          }
          return changed || portalChanged
            ? channelRepository.update(tx, id, { ...columns, updated_at: now() })
            : current;
        }),
      );
      return view(row);
    },

    /**
     * A new feed token: the old one is refused (404) from this moment, on every instance (each feed
     * request looks its token up), and `channel.feed_token_rotated` is recorded in the same transaction.
     */
    async rotateFeedToken(accountId: string, id: string): Promise<Channel> {
      const row = await inTransaction(db, async (tx) => {
        await channelRepository.hold(tx, accountId, id);
        const at = now();
        const rotated = await channelRepository.update(tx, id, { feed_token: newFeedToken(), updated_at: at });
        await emit(tx, {
          accountId,
          type: 'channel.feed_token_rotated',
          data: { channel_id: rotated.id, name: rotated.name, type: rotated.type, rotated_at: at.toISOString() },
          at,
        });
        return rotated;
      });
      return view(row);
    },

    /** Removes a channel and its feed; refused while listings are live on it (withdraw them first). */
    delete(accountId: string, id: string): Promise<void> {
      return inTransaction(db, async (tx) => {
        await channelRepository.hold(tx, accountId, id);
        const live = (await liveCounts(tx, [id])).get(id) ?? 0;
        if (live > 0)
          throw new ApiError('conflict', {
            message: `${live} listing(s) are live on this channel; withdraw them first (POST /v1/listings/{id}/withdraw).`,
          });
        const held = await portalStillHolds(tx, id);
        if (held > 0)
          throw new ApiError('conflict', {
            message: `The portal may still hold ${held} listing(s) of this channel: wait until their withdrawal has reached it (GET /v1/channels/{id}/portal-status), then delete the channel.`,
          });
        await channelRepository.delete(tx, id);
      });
    },
  };
}
