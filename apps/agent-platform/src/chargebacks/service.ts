import { storedFile } from '@platform/documents';
import type { ApiContext } from '@platform/service';
import { ratesByIds } from '../agents/index.js';
import type { AgentPlatformEvents } from '../events.js';
import { toInternalInvoice, toSettlement, toSettlementSummary } from './mapping.js';
import { internalInvoiceRepository, linesOfSettlement, settlementRepository } from './repository.js';
import type { ChargebackListQuery, ChargebackSettlement, InternalInvoice } from './schemas.js';

export type ChargebackServiceDeps = Pick<ApiContext<AgentPlatformEvents>, 'db' | 'cursors' | 'publicBaseUrl'>;
export type ChargebackService = ReturnType<typeof createChargebackService>;

/** Reading settlements and internal invoices of one account (they are made by the `chargebacks` job). */
export function createChargebackService({ db, cursors, publicBaseUrl }: ChargebackServiceDeps) {
  return {
    listSettlements(accountId: string, { period, team, limit, cursor }: ChargebackListQuery) {
      return settlementRepository.page(db, accountId, {
        cursors,
        cursor,
        limit,
        filters: { period, team },
        map: toSettlementSummary,
      });
    },

    async getSettlement(accountId: string, id: string): Promise<ChargebackSettlement> {
      const row = await settlementRepository.find(db, accountId, id);
      const lines = await linesOfSettlement(db, accountId, id);
      const rates = await ratesByIds(db, accountId, [...new Set(lines.map((l) => l.rate_id))]);
      return toSettlement(row, lines, new Map(rates.map((r) => [r.id, r])));
    },

    listInvoices(accountId: string, { period, team, limit, cursor }: ChargebackListQuery) {
      return internalInvoiceRepository.page(db, accountId, {
        cursors,
        cursor,
        limit,
        filters: { period, team },
        map: (row) => toInternalInvoice(row, publicBaseUrl),
      });
    },

    async getInvoice(accountId: string, id: string): Promise<InternalInvoice> {
      return toInternalInvoice(await internalInvoiceRepository.find(db, accountId, id), publicBaseUrl);
    },

    /** The stored PDF's address (404 until the invoice's PDF is completed). */
    async pdf(accountId: string, id: string): Promise<{ sha256: string; number: string }> {
      const row = await internalInvoiceRepository.find(db, accountId, id);
      return { sha256: storedFile(row, "The internal invoice's PDF"), number: row.number };
    },
  };
}
