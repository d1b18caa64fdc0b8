import { documentFile } from '@platform/documents';
import type { ChargebackUnit, Prisma } from '@platform/db';
import type { InternalInvoiceRow, SettlementRow } from './repository.js';
import {
  LINE_METHOD,
  type ChargebackSettlement,
  type ChargebackSettlementSummary,
  type InternalInvoice,
} from './schemas.js';

type LineRow = Prisma.ChargebackLineGetPayload<object>;
export interface RateOfLine {
  unit: ChargebackUnit;
  valid_from: Date;
}

/** The settlement without its lines. */
export function toSettlementSummary(row: SettlementRow): ChargebackSettlementSummary {
  return {
    id: row.id,
    period: row.period,
    team: row.team,
    net_cents: Number(row.net_cents),
    internal_invoice: row.internal_invoice
      ? { id: row.internal_invoice.id, number: row.internal_invoice.number }
      : null,
    created_at: row.created_at.toISOString(),
  };
}

export function toSettlement(
  row: SettlementRow,
  lines: LineRow[],
  rates: Map<string, RateOfLine>,
): ChargebackSettlement {
  const late = lines.filter((l) => l.late).reduce((sum, l) => sum + l.amount_cents, 0n);
  return {
    ...toSettlementSummary(row),
    late_cents: Number(late),
    method: LINE_METHOD,
    lines: lines.map((line) => {
      const rate = rates.get(line.rate_id);
      const rateUnit = rate?.unit ?? line.unit;
      return {
        position: line.position,
        agent_id: line.agent_id,
        usage_period: line.usage_period,
        late: line.late,
        records: line.records,
        quantity: line.quantity.toString(),
        unit: line.unit,
        rate: {
          amount_cents: line.rate_amount_cents,
          unit: rateUnit,
          valid_from: rate?.valid_from.toISOString() ?? row.created_at.toISOString(),
        },
        priced: rateUnit === line.unit,
        amount_cents: Number(line.amount_cents),
      };
    }),
  };
}

export function toInternalInvoice(row: InternalInvoiceRow, publicBaseUrl: string): InternalInvoice {
  return {
    id: row.id,
    number: row.number,
    team: row.team,
    period: row.period,
    issue_date: row.issue_date.toISOString().slice(0, 10),
    net_cents: Number(row.net_cents),
    settlement_id: row.settlement_id,
    status: row.status === 'completed' || row.status === 'failed' ? row.status : 'generating',
    pdf_url: `${publicBaseUrl}/v1/internal-invoices/${row.id}/pdf`,
    pdf: documentFile(row),
    failure_reason: row.failure_reason,
    created_at: row.created_at.toISOString(),
    completed_at: row.completed_at?.toISOString() ?? null,
  };
}
