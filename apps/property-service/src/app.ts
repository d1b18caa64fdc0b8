import type { FastifyInstance } from 'fastify';
import { createServiceApp, type ServiceAppDeps } from '@platform/service';
import { propertyDescriptor } from './descriptor.js';
import { createInquiryService, inquiryRoutes } from './leads/inquiries/index.js';
import { createMatchingService, matchingRoutes } from './leads/matching/index.js';
import { createOutreachSettingsService, outreachRoutes, outreachTrigger } from './leads/outreach/index.js';
import {
  MEDIA_MAX_BYTES,
  MEDIA_MAX_PER_PROPERTY,
  MEDIA_MAX_PIXELS,
  createMediaService,
  mediaRoutes,
} from './media/index.js';
import { createProspectService, prospectRoutes } from './leads/prospects/index.js';
import { createErasureAuditService, erasureAuditRoutes, type ErasureJournal } from './leads/erasure-audit/index.js';
import { auskunftRoutes, createAuskunftService } from './leads/auskunft/index.js';
import { createPortalInquiryService, portalInquiryRoutes } from './leads/portal-inquiries/index.js';
import { endViewingsReporting } from './forgotten-viewings.js';
import type { Db, PropertyStatus } from '@platform/db';
import {
  appointmentRoutes,
  appointmentsOfProspect,
  cancelAppointmentsOfProperty,
  createAppointmentService,
} from './appointments/index.js';
import { FEEDS_PATH, channelRoutes, createChannelService } from './channels/index.js';
import {
  createPortalService,
  enqueueAccountTransfers,
  enqueuePortalTransfer,
  portalObjectSql,
  portalRoutes,
  portalScheduleSql,
} from './portals/index.js';
import {
  createListingService,
  listingRepository,
  listingRoutes,
  withdrawListingsOfProperty,
} from './listings/index.js';
import {
  FEED_RATE_LIMIT_PER_ADDRESS,
  FEED_RATE_LIMIT_PER_TOKEN,
  feedRoutes,
  publicationRefusal,
} from './publication/index.js';
import { createPropertyService, propertyRoutes, type StatusChange } from './properties/index.js';
import { createInvoiceService, invoiceJobs, invoiceRoutes } from './invoices/index.js';
import { requestGeneration } from '@platform/documents';
import {
  cancelSlotsOfProperty,
  createViewingSlotService,
  openSlotOfHostDuring,
  viewingSlotRoutes,
} from './viewing-slots/index.js';
import { createValuationService, valuationRoutes } from './valuations/index.js';
import { createSettlementService, settlementRoutes } from './settlements/index.js';

export interface PropertyAppDeps extends ServiceAppDeps {
  /** Retention of prospects in days after their last activity (default 180). */
  leadsRetentionDays?: number;
  /** Per-file limit of property media in bytes (default 20 MiB). */
  mediaMaxBytes?: number;
  /** Pixels an image may have (default 40 megapixels). */
  mediaMaxPixels?: number;
  /** Media a property may have (default 100). */
  mediaMaxPerProperty?: number;
  /** The public feeds: budgets per minute per token and per client address (limited only with `rateLimit`'s Redis), memory of built feeds. */
  feeds?: { perToken?: number; perAddress?: number; cacheMb?: number };
  /** Where erasures of prospects are also kept outside the database, so that a restore cannot undo them. */
  erasureJournal?: ErasureJournal;
}

/**
 * What a property's status change ends, in its transaction: sold, let or archived, it takes no
 * viewings (open slots and appointments cancelled, `property_unavailable`); archived, its listings
 * go off every channel. Sold or let with commission terms, its commission is settled (settlements/).
 */
async function propertyStatusChanged(
  tx: Db,
  accountId: string,
  propertyId: string,
  to: PropertyStatus,
  at: Date,
): Promise<void> {
  if (to === 'sold' || to === 'rented' || to === 'archived') {
    await cancelAppointmentsOfProperty(tx, accountId, propertyId, at);
    await cancelSlotsOfProperty(tx, accountId, propertyId, at);
  }
  if (to === 'archived') await withdrawListingsOfProperty(tx, accountId, propertyId, at);
}

/** The property-marketing service: property API at `/v1`, leads API (German) at `/leads/v1`, each with its OpenAPI document. */
export function buildPropertyApp(deps: PropertyAppDeps): Promise<FastifyInstance> {
  const retentionDays = deps.leadsRetentionDays ?? 180;
  const media = {
    maxBytes: deps.mediaMaxBytes ?? MEDIA_MAX_BYTES,
    maxPixels: deps.mediaMaxPixels ?? MEDIA_MAX_PIXELS,
    maxMedia: deps.mediaMaxPerProperty ?? MEDIA_MAX_PER_PROPERTY,
  };
  const feeds = deps.feeds ?? {};
  // Feed tokens are path segments: every log line shows them as `[REDACTED]`.
  return createServiceApp(
    { ...deps, secretPathPrefixes: [...(deps.secretPathPrefixes ?? []), FEEDS_PATH] },
    {
      service: propertyDescriptor,
      dialectFor: (url) => (url.startsWith('/leads/') ? 'de' : 'en'),
      document: {
        prefix: '/v1',
        title: 'Property Marketing Service: Property API',
        description: 'Property records for sale or rent. Authenticate with an API key in the `apikey` header.',
      },
      routes: async (v1, context) => {
        const settlements = createSettlementService(context);
        const onStatusChanged = async (tx: Db, { accountId, propertyId, to, at, invoiceRecipients }: StatusChange) => {
          await propertyStatusChanged(tx, accountId, propertyId, to, at);
          const settled = await settlements.settleStatusChange(tx, accountId, propertyId, to, at, invoiceRecipients);
          const invoiceIds = settled?.invoice_ids ?? [];
          // Archived, its listings went off every channel: the portal channels send the deletion at once.
          const portals =
            to === 'archived' ? () => enqueueAccountTransfers(context.jobs, context.db, accountId, at) : null;
          if (invoiceIds.length === 0) return portals ?? undefined;
          return async () => {
            await portals?.();
            for (const id of invoiceIds) {
              await requestGeneration(
                () => invoiceJobs.enqueue(context.jobs, id),
                (error) => v1.log.warn({ err: error, invoice_id: id }, 'invoice PDF not enqueued; the sweeper will'),
              );
            }
          };
        };
        // Activated or made cheaper: the matching prospects are announced in the background (leads/outreach).
        const onOfferImproved = outreachTrigger(context.jobs, (fields, message) => v1.log.warn(fields, message));
        await v1.register(propertyRoutes, {
          properties: createPropertyService({ ...context, onStatusChanged, onOfferImproved }),
        });
        await v1.register(mediaRoutes, {
          media: createMediaService({ ...context, ...media }),
          storage: context.storage,
          ...media,
        });
        // Listings publish onto channels (they import channels/); publication/ sits above both: listings
        // get the channel adapters' check, channels the live listings' counts, from here.
        // A publication or withdrawal on a portal channel is sent by the worker at once (the sweeper would within a minute).
        const publicationsChanged = async (channels: readonly { id: string; type: string }[]) => {
          for (const channel of channels.filter((c) => c.type === 'portal'))
            await enqueuePortalTransfer(context.jobs, channel.id, context.now()).catch((error: unknown) =>
              v1.log.warn({ err: error, channel_id: channel.id }, 'portal transfer not enqueued; the sweeper will'),
            );
        };
        await v1.register(listingRoutes, {
          listings: createListingService({ ...context, refuses: publicationRefusal, publicationsChanged }),
          storage: context.storage,
        });
        const liveCounts = (db: Db, ids: readonly string[]) => listingRepository.liveCountsByChannel(db, ids);
        await v1.register(channelRoutes, {
          channels: createChannelService({
            ...context,
            liveCounts,
            cipher: deps.webhooks.secrets,
            targets: deps.webhooks.policy,
            portalAccountChanged: portalScheduleSql.restart,
            portalStillHolds: portalObjectSql.stillHeld,
          }),
        });
        await v1.register(portalRoutes, { portals: createPortalService(context) });
        await v1.register(appointmentRoutes, {
          appointments: createAppointmentService({ ...context, openSlotOfHostDuring }),
        });
        await v1.register(viewingSlotRoutes, { slots: createViewingSlotService(context) });
        await v1.register(valuationRoutes, { valuations: createValuationService(context) });
        await v1.register(settlementRoutes, { settlements });
        await v1.register(invoiceRoutes, {
          invoices: createInvoiceService({ ...context, log: v1.log }),
          storage: context.storage,
        });
      },
      publicApi: {
        document: {
          prefix: '/public/v1',
          title: 'Property Marketing Service: Public feeds',
          description:
            "The feeds of the publication channels, read without a key: the token in the URL (the channel's `feed_url`) is the secret. " +
            'Only live listings, the address at its precision, nothing personal.',
        },
        routes: async (api, context) => {
          const limits = deps.rateLimit && {
            redis: deps.rateLimit.redis,
            perToken: feeds.perToken ?? FEED_RATE_LIMIT_PER_TOKEN,
            perAddress: feeds.perAddress ?? FEED_RATE_LIMIT_PER_ADDRESS,
            prefix: `${deps.rateLimit.prefix ?? 'ratelimit:'}feeds:`,
            warn: deps.rateLimit.warn,
          };
          const cacheMaxBytes = feeds.cacheMb === undefined ? undefined : feeds.cacheMb * 1024 * 1024;
          await api.register(feedRoutes, {
            db: context.db,
            storage: context.storage,
            publicBaseUrl: context.publicBaseUrl,
            now: context.now,
            cacheMaxBytes,
            limits,
          });
        },
      },
      extraApis: [
        {
          document: {
            prefix: '/leads/v1',
            title: 'Property Marketing Service: Leads API',
            description:
              'Interessenten mit Einwilligung und Suchprofil, Aufbewahrung, Anonymisierung und Löschung; Anfragen mit nachvollziehbarer Bewertung; ' +
              'automatisches Matching. Authentifizierung mit einem API-Key im Header `apikey` (dieselben Keys wie die Property API).',
          },
          routes: async (leads, context) => {
            await leads.register(prospectRoutes, {
              prospects: createProspectService({
                ...context,
                retentionDays,
                endViewings: endViewingsReporting,
                erasureJournal: deps.erasureJournal,
              }),
            });
            await leads.register(erasureAuditRoutes, { erasureAudit: createErasureAuditService(context) });
            await leads.register(auskunftRoutes, {
              auskunft: createAuskunftService({ ...context, appointmentsOf: appointmentsOfProspect }),
            });
            await leads.register(inquiryRoutes, { inquiries: createInquiryService({ ...context, retentionDays }) });
            await leads.register(portalInquiryRoutes, {
              portalInquiries: createPortalInquiryService({ ...context, retentionDays }),
            });
            await leads.register(matchingRoutes, { matching: createMatchingService(context) });
            await leads.register(outreachRoutes, { settings: createOutreachSettingsService(context) });
          },
        },
      ],
    },
  );
}
