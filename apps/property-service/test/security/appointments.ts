import type { SecurityRoute } from '@platform/testkit';
import { activeProperty, createInquiry, type PropertyTestContext } from '../helpers.js';

const SCOPE = 'appointments:write';

/** An hour-long time `days` ahead of the app's clock (the suite moves the clock a second per call). */
const timeAhead = (ctx: PropertyTestContext, days: number) => {
  const start = new Date(ctx.clock.now.getTime() + days * 86_400_000);
  return { starts_at: start.toISOString(), ends_at: new Date(start.getTime() + 3600_000).toISOString() };
};

async function fixtures(ctx: PropertyTestContext, key: string, days: number) {
  const property = await activeProperty(ctx, key);
  const inquiry = await createInquiry(ctx, property, { key });
  const appointment = await ctx.send(
    'POST',
    '/v1/appointments',
    { inquiry_id: inquiry.id, ...timeAhead(ctx, days) },
    key,
  );
  const slot = await ctx.send(
    'POST',
    `/v1/properties/${property}/viewing-slots`,
    { ...timeAhead(ctx, days + 1), capacity: 2 },
    key,
  );
  if (appointment.statusCode !== 201 || slot.statusCode !== 201)
    throw new Error(`fixtures not created: ${appointment.body} ${slot.body}`);
  return {
    property,
    inquiry: inquiry.id,
    appointment: appointment.json().id as string,
    slot: slot.json().id as string,
  };
}

/** The appointment and viewing-slot routes, on records of the tenant and of another account. */
export async function appointmentSecurityRoutes(ctx: PropertyTestContext): Promise<SecurityRoute[]> {
  const mine = await fixtures(ctx, ctx.tenant.key, 30);
  const theirs = await fixtures(ctx, ctx.other.key, 30);
  const on = (
    kind: 'appointments' | 'slots',
    method: SecurityRoute['method'],
    suffix: string,
    body?: unknown,
  ): SecurityRoute => {
    const [base, missing, id] =
      kind === 'appointments'
        ? ['/v1/appointments', 'apt_missing', 'appointment' as const]
        : ['/v1/viewing-slots', 'slot_missing', 'slot' as const];
    return {
      method,
      url: `${base}/${mine[id]}${suffix}`,
      otherTenantUrl: `${base}/${theirs[id]}${suffix}`,
      missingUrl: `${base}/${missing}${suffix}`,
      scope: SCOPE,
      body,
    };
  };
  const onProperty = (method: SecurityRoute['method'], body?: unknown): SecurityRoute => ({
    method,
    url: `/v1/properties/${mine.property}/viewing-slots`,
    otherTenantUrl: `/v1/properties/${theirs.property}/viewing-slots`,
    missingUrl: '/v1/properties/prop_missing/viewing-slots',
    scope: SCOPE,
    body,
  });
  return [
    {
      method: 'POST',
      url: '/v1/appointments',
      scope: SCOPE,
      body: { inquiry_id: mine.inquiry, ...timeAhead(ctx, 40) },
    },
    { method: 'GET', url: '/v1/appointments', scope: SCOPE },
    on('appointments', 'GET', ''),
    on('appointments', 'GET', '/ics'),
    on('appointments', 'POST', '/confirm', { by: 'agent' }),
    on('appointments', 'POST', '/reschedule', timeAhead(ctx, 50)),
    on('appointments', 'POST', '/cancel', { by: 'agent', reason: 'other' }),
    on('appointments', 'POST', '/complete'),
    onProperty('POST', { ...timeAhead(ctx, 60), capacity: 1 }),
    onProperty('GET'),
    on('slots', 'GET', ''),
    on('slots', 'POST', '/cancel'),
    on('slots', 'POST', '/allocate'),
  ];
}
