import { Type, type TProperties } from '@sinclair/typebox';
import type { EventCatalogue } from '@platform/webhooks';

const ChangedFields = Type.Array(Type.String(), {
  description: 'Dotted paths of the fields that changed, e.g. `purchase_price_eur`, `address.city`, `status`.',
});

const PortalTransferData = <E extends TProperties>(extra: E) =>
  Type.Object(
    {
      channel_id: Type.String(),
      transfer_id: Type.String(),
      umfang: Type.Union([Type.Literal('VOLL'), Type.Literal('TEIL')], {
        description: '`VOLL`: the file held every live listing of the channel; `TEIL`: only the changes.',
      }),
      file_name: Type.String({ description: "The ZIP file on the portal's import account." }),
      listings: Type.Array(
        Type.Object(
          {
            listing_id: Type.String(),
            property_id: Type.String(),
            aktion: Type.Union([Type.Literal('CHANGE'), Type.Literal('DELETE')]),
          },
          { additionalProperties: false },
        ),
        { description: 'What the file held: each listing with its OpenImmo `aktionart`.' },
      ),
      ...extra,
    },
    { additionalProperties: false },
  );

/** A portal channel's transfers: each file sent, or given up. */
const PORTAL_TRANSFER_EVENTS = [
  {
    type: 'portal_transfer.succeeded',
    description: "A ZIP file of a portal channel's listings is complete on the portal's import account.",
    scope: 'listings:read',
    data: PortalTransferData({ transferred_at: Type.String({ format: 'date-time' }) }),
  },
  {
    type: 'portal_transfer.failed',
    description:
      "A portal channel's transfer failed: `retrying` true when it is tried again (after 1m, 5m, 30m, 2h, 6h), false when the portal refused the account (login, folder, permission) or the attempts are used up — then it waits for a change of the channel's `portal` or `POST /v1/channels/{id}/retransfer`.",
    scope: 'listings:read',
    data: PortalTransferData({
      reason: Type.String({ description: 'What failed, e.g. the login was refused.' }),
      retrying: Type.Boolean(),
      next_attempt_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
    }),
  },
] as const;

/** The event types of the property-marketing service. `data` holds ids and non-personal fields only. */
export const PROPERTY_EVENTS = [
  {
    type: 'property.created',
    description: 'A new property was saved.',
    scope: 'properties:read',
    data: Type.Object({ property_id: Type.String(), status: Type.String(), type: Type.String() }),
  },
  {
    type: 'property.updated',
    description: 'Master data, price, status or media changed.',
    scope: 'properties:read',
    data: Type.Object({ property_id: Type.String(), changed_fields: ChangedFields }),
  },
  {
    type: 'property.archived',
    description: 'The property was taken off the market.',
    scope: 'properties:read',
    data: Type.Object({ property_id: Type.String(), status: Type.Literal('archived') }),
  },
  {
    type: 'listing.completed',
    description: 'Generation finished, the PDF is ready.',
    scope: 'listings:read',
    data: Type.Object(
      {
        listing_id: Type.String(),
        property_id: Type.String(),
        status: Type.Literal('completed'),
        pdf_url: Type.String({
          description:
            'URL of the listing PDF: `PUBLIC_BASE_URL/v1/listings/{listing_id}/pdf` (needs `listings:read`).',
        }),
      },
      { additionalProperties: false },
    ),
  },
  {
    type: 'listing.published',
    description: 'The listing is live on at least one channel.',
    scope: 'listings:read',
    data: Type.Object(
      {
        listing_id: Type.String(),
        property_id: Type.String(),
        channels: Type.Array(Type.String(), { description: 'Names of the channels the listing is live on now.' }),
      },
      { additionalProperties: false },
    ),
  },
  {
    type: 'channel.feed_token_rotated',
    description:
      'A channel was given a new feed token: the old feed URL is refused from now on (the token itself is never in an event).',
    scope: 'listings:read',
    data: Type.Object(
      {
        channel_id: Type.String(),
        name: Type.String({ description: "The channel's name." }),
        type: Type.Union([Type.Literal('website'), Type.Literal('openimmo'), Type.Literal('portal')], {
          description: "The channel's type.",
        }),
        rotated_at: Type.String({ format: 'date-time' }),
      },
      { additionalProperties: false },
    ),
  },
  ...PORTAL_TRANSFER_EVENTS,
  {
    type: 'inquiry.received',
    description: 'A lead reached out about a property.',
    scope: 'leads:read',
    data: Type.Object({ inquiry_id: Type.String(), property_id: Type.String(), interessent_id: Type.String() }),
  },
  {
    type: 'inquiry.scored',
    description: 'Matching scored an inquiry.',
    scope: 'leads:read',
    data: Type.Object({
      inquiry_id: Type.String(),
      property_id: Type.String(),
      score: Type.Integer({ minimum: 0, maximum: 100 }),
    }),
  },
  {
    type: 'consent.withdrawn',
    description:
      'A consent of a prospect was withdrawn (GDPR Art. 7(3)): one event per record ended. Withdrawing a marketing consent ends every standing marketing consent of the prospect, and so does an objection.',
    scope: 'leads:read',
    data: Type.Object(
      {
        einwilligung_id: Type.String(),
        interessent_id: Type.String(),
        zweck: Type.Union([Type.Literal('marketing'), Type.Literal('kontaktaufnahme')]),
      },
      { additionalProperties: false },
    ),
  },
  {
    type: 'prospect.restricted',
    description:
      'The processing of a prospect was restricted (GDPR Art. 18): kept, but no longer matched, contacted or exported.',
    scope: 'leads:read',
    data: Type.Object({ interessent_id: Type.String() }, { additionalProperties: false }),
  },
  {
    type: 'prospect.restriction_lifted',
    description: 'The restriction of a prospect was lifted.',
    scope: 'leads:read',
    data: Type.Object({ interessent_id: Type.String() }, { additionalProperties: false }),
  },
  {
    type: 'prospect.objected',
    description:
      'A prospect objected to marketing (GDPR Art. 21): the marketing consents are withdrawn and no new one is accepted.',
    scope: 'leads:read',
    data: Type.Object(
      {
        interessent_id: Type.String(),
        einwilligung_ids: Type.Array(Type.String(), { description: 'The marketing consents the objection withdrew.' }),
      },
      { additionalProperties: false },
    ),
  },
  {
    type: 'prospect.matched',
    description:
      "Treffer: a property that went on the market or got cheaper matches the prospect's search profile at least at the account's `treffer_schwelle` (the prospect may be reached for outreach). Once per pair and offer price, at most `treffer_pro_tag` per prospect and day.",
    scope: 'leads:read',
    data: Type.Object(
      {
        property_id: Type.String(),
        interessent_id: Type.String(),
        score: Type.Integer({ minimum: 0, maximum: 100, description: 'The total of the inquiry scoring model.' }),
        anlass: Type.Union([Type.Literal('aktivierung'), Type.Literal('preissenkung')], {
          description:
            '`aktivierung`: the property went on the market, or an active property was given its first price; `preissenkung`: its price was lowered.',
        }),
      },
      { additionalProperties: false },
    ),
  },
  {
    type: 'appointment.confirmed',
    description: 'A viewing appointment was confirmed.',
    scope: 'appointments:write',
    data: Type.Object(
      {
        appointment_id: Type.String(),
        property_id: Type.String(),
        starts_at: Type.String({ format: 'date-time' }),
        ends_at: Type.String({ format: 'date-time' }),
        confirmed_by: Type.Union([Type.Literal('agent'), Type.Literal('prospect')], {
          description: 'The side that confirmed.',
        }),
      },
      { additionalProperties: false },
    ),
  },
  {
    type: 'appointment.cancelled',
    description: 'An appointment was cancelled by either side.',
    scope: 'appointments:write',
    data: Type.Object(
      {
        appointment_id: Type.String(),
        property_id: Type.String(),
        starts_at: Type.String({ format: 'date-time' }),
        ends_at: Type.String({ format: 'date-time' }),
        cancelled_by: Type.Union([Type.Literal('agent'), Type.Literal('prospect')], {
          description: 'The side that cancelled.',
        }),
        reason: Type.Union(
          [
            Type.Literal('prospect_declined'),
            Type.Literal('agent_unavailable'),
            Type.Literal('property_unavailable'),
            Type.Literal('other'),
          ],
          { description: 'The reason code (never free text).' },
        ),
      },
      { additionalProperties: false },
    ),
  },
  {
    type: 'settlement.created',
    description:
      'A property with commission terms was sold or let: its commission settlement was created (ids and amounts in cents, no names).',
    scope: 'commissions:read',
    data: Type.Object(
      {
        settlement_id: Type.String(),
        property_id: Type.String(),
        kind: Type.Union([Type.Literal('sale'), Type.Literal('letting')]),
        net_cents: Type.Integer({ description: 'Sum of the lines, in cents.' }),
        vat_cents: Type.Integer(),
        gross_cents: Type.Integer(),
        lines: Type.Array(
          Type.Object(
            {
              party: Type.Union(
                [Type.Literal('seller'), Type.Literal('buyer'), Type.Literal('landlord'), Type.Literal('tenant')],
                { description: 'The paying party (no names).' },
              ),
              net_cents: Type.Integer(),
              vat_cents: Type.Integer(),
              gross_cents: Type.Integer(),
              due_after_party: Type.Union(
                [
                  Type.Literal('seller'),
                  Type.Literal('buyer'),
                  Type.Literal('landlord'),
                  Type.Literal('tenant'),
                  Type.Null(),
                ],
                { description: '§656d BGB: due only after this party has paid.' },
              ),
              invoice_id: Type.Union([Type.String(), Type.Null()], {
                description: "The party's invoice, when recipients were given (`GET /v1/invoices/{id}`).",
              }),
            },
            { additionalProperties: false },
          ),
        ),
      },
      { additionalProperties: false },
    ),
  },
  {
    type: 'invoice.credited',
    description:
      'An invoice was corrected in full by a credit note (type 381, its own number series): ids, numbers and amounts in cents, no names.',
    scope: 'commissions:read',
    data: Type.Object(
      {
        invoice_id: Type.String({ description: 'The corrected invoice (never changed itself).' }),
        credit_note_id: Type.String({
          description: 'The credit note (`GET /v1/invoices/{id}`, `type` `credit_note`).',
        }),
        credit_note_number: Type.String({ description: 'Gapless per account and year: `KR-2026-000001`.' }),
        settlement_id: Type.String(),
        property_id: Type.String(),
        gross_cents: Type.Integer({ description: "The amount corrected (the invoice's gross), in cents." }),
      },
      { additionalProperties: false },
    ),
  },
] as const satisfies EventCatalogue;

export type PropertyEvents = typeof PROPERTY_EVENTS;
