import type { SecurityRoute } from '@platform/testkit';
import { settleChargebacks } from '../../src/chargebacks/index.js';
import type { AgentPlatformTestContext } from '../helpers.js';
import { createAgent } from './agents.js';

/** Settles January 2026 of the key's account with one usage record of a new agent; resolves to the settlement and invoice ids. */
async function settledPeriod(
  ctx: AgentPlatformTestContext,
  tenant: AgentPlatformTestContext['tenant'],
): Promise<{ settlement: string; invoice: string }> {
  const agent = await createAgent(ctx, tenant.key);
  const records = [
    {
      client_id: 'security-chargeback',
      team: 'Accounts payable',
      quantity: 2,
      unit: 'per_1k_tokens',
      occurred_at: '2026-01-15T10:00:00Z',
    },
  ];
  await ctx.send('POST', `/v1/agents/${agent}/usage`, { records }, tenant.key);
  const {
    internal_invoice_ids: [invoice],
  } = await settleChargebacks(ctx.db.prisma, { accountId: tenant.accountId, period: '2026-01', now: ctx.clock.now });
  const { settlement_id: settlement } = await ctx.db.prisma.internalInvoice.findUniqueOrThrow({
    where: { id: invoice },
  });
  return { settlement, invoice };
}

/** The chargeback settlements and internal invoices, on records of the tenant and of another account. */
export async function chargebackSecurityRoutes(ctx: AgentPlatformTestContext): Promise<SecurityRoute[]> {
  const mine = await settledPeriod(ctx, ctx.tenant);
  const theirs = await settledPeriod(ctx, ctx.other);
  const on = (
    collection: string,
    pick: (ids: { settlement: string; invoice: string }) => string,
    suffix = '',
    missing = 'missing',
  ): SecurityRoute => ({
    method: 'GET',
    url: `/v1/${collection}/${pick(mine)}${suffix}`,
    otherTenantUrl: `/v1/${collection}/${pick(theirs)}${suffix}`,
    missingUrl: `/v1/${collection}/${missing}${suffix}`,
    scope: 'chargebacks:read',
  });
  return [
    { method: 'GET', url: '/v1/chargebacks/settlements?period=2026-01', scope: 'chargebacks:read' },
    on('chargebacks/settlements', (ids) => ids.settlement, '', 'stl_missing'),
    { method: 'GET', url: '/v1/internal-invoices?team=Accounts%20payable', scope: 'chargebacks:read' },
    on('internal-invoices', (ids) => ids.invoice, '', 'iinv_missing'),
    on('internal-invoices', (ids) => ids.invoice, '/pdf', 'iinv_missing'),
  ];
}
