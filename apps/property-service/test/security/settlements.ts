import type { SecurityRoute } from '@platform/testkit';
import { setBillingProfile } from '@platform/billing';
import { validProperty, type PropertyTestContext } from '../helpers.js';

/** A property with commission terms of the key's account, marked sold: resolves to its settlement's id. */
async function settlement(ctx: PropertyTestContext, key: string): Promise<string> {
  const created = await ctx.send(
    'POST',
    '/v1/properties',
    { ...validProperty(), commission: { seller_percent: 3, buyer_percent: 3, engaged_by: 'both' } },
    key,
  );
  const id = created.json().id as string;
  await ctx.send('POST', `/v1/properties/${id}/activate`, undefined, key);
  const sold = await ctx.send('POST', `/v1/properties/${id}/mark-sold`, undefined, key);
  if (sold.statusCode !== 200) throw new Error(`not sold: ${sold.statusCode} ${sold.body}`);
  const page = await ctx.send('GET', `/v1/settlements?property_id=${id}`, undefined, key);
  return page.json().data[0].id as string;
}

/** The settlement routes, on a settlement of the tenant and one of another account. */
export async function settlementSecurityRoutes(ctx: PropertyTestContext): Promise<SecurityRoute[]> {
  const mine = await settlement(ctx, ctx.tenant.key);
  const theirs = await settlement(ctx, ctx.other.key);
  return [
    { method: 'GET', url: '/v1/settlements', scope: 'commissions:read' },
    {
      method: 'GET',
      url: `/v1/settlements/${mine}`,
      otherTenantUrl: `/v1/settlements/${theirs}`,
      missingUrl: '/v1/settlements/stl_missing',
      scope: 'commissions:read',
    },
  ];
}

/** Invoices need the account's billing profile and the recipients: a sale of the key's account with both; resolves to one invoice id. */
async function invoice(ctx: PropertyTestContext, accountId: string, key: string): Promise<string> {
  await setBillingProfile(
    ctx.db.prisma,
    accountId,
    {
      name: 'Makler GmbH',
      street: 'Am Markt 1',
      postal_code: '10115',
      city: 'Berlin',
      country: 'DE',
      tax_number: '30/123/45678',
      email: 'rechnung@makler.example',
      phone: '+49 30 1',
      contact: 'Büro',
    },
    new Date(),
  );
  const created = await ctx.send(
    'POST',
    '/v1/properties',
    { ...validProperty(), commission: { seller_percent: 3, buyer_percent: 3, engaged_by: 'both' } },
    key,
  );
  const id = created.json().id as string;
  await ctx.send('POST', `/v1/properties/${id}/activate`, undefined, key);
  const party = { name: 'Partei', street: 'Weg 1', postal_code: '10115', city: 'Berlin', email: 'partei@example.org' };
  const sold = await ctx.send(
    'POST',
    `/v1/properties/${id}/mark-sold`,
    { invoice_recipients: { seller: party, buyer: party } },
    key,
  );
  if (sold.statusCode !== 200) throw new Error(`not sold: ${sold.statusCode} ${sold.body}`);
  const page = await ctx.send('GET', `/v1/settlements?property_id=${id}`, undefined, key);
  return page.json().data[0].lines[0].invoice_id as string;
}

/** The invoice routes, on an invoice of the tenant and one of another account. */
export async function invoiceSecurityRoutes(ctx: PropertyTestContext): Promise<SecurityRoute[]> {
  const mine = await invoice(ctx, ctx.tenant.accountId, ctx.tenant.key);
  const theirs = await invoice(ctx, ctx.other.accountId, ctx.other.key);
  const on = (suffix: string) => ({
    url: `/v1/invoices/${mine}${suffix}`,
    otherTenantUrl: `/v1/invoices/${theirs}${suffix}`,
    missingUrl: `/v1/invoices/inv_missing${suffix}`,
  });
  return [
    { method: 'GET', url: '/v1/invoices', scope: 'commissions:read' },
    { method: 'GET', ...on(''), scope: 'commissions:read' },
    { method: 'GET', ...on('/pdf'), scope: 'commissions:read' },
    { method: 'GET', ...on('/xml'), scope: 'commissions:read' },
    { method: 'POST', ...on('/mark-paid'), scope: 'properties:write' },
    { method: 'POST', ...on('/credit-note'), scope: 'commissions:write', body: { reason: 'Rückabwicklung' } },
  ];
}
