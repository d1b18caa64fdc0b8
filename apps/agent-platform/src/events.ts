import { Type } from '@sinclair/typebox';
import { StringEnum } from '@platform/http';
import type { EventCatalogue } from '@platform/webhooks';

/** Who confirms or cancels an evaluation session: the agent's provider or the evaluating team (the sessions resource uses these). */
export const SESSION_SIDES = ['provider', 'team'] as const;
/**
 * Why a session was cancelled: the team declined, the provider cannot, the agent was retired
 * (set by the platform when the agent is retired, never needed by hand) or anything else.
 */
export const SESSION_CANCEL_REASONS = ['team_declined', 'provider_unavailable', 'agent_retired', 'other'] as const;

const ChangedFields = Type.Array(Type.String(), {
  description: 'Dotted paths of the fields that changed, e.g. `chargeback_rate.amount_cents`.',
});

/** What both session events carry besides the session's id: ids and times only, never the team's name or people. */
const SessionSubject = {
  agent_id: Type.String({ description: 'The agent evaluated.' }),
  access_request_id: Type.Union([Type.String(), Type.Null()], {
    description: 'The access request the session evaluates, if any.',
  }),
  starts_at: Type.String({ format: 'date-time', description: "The session's (current) start, UTC." }),
  ends_at: Type.String({ format: 'date-time', description: 'Its end, UTC.' }),
};

/** The ten event types of the agent platform. `data` holds ids and non-personal fields only. */
export const AGENT_PLATFORM_EVENTS = [
  {
    type: 'agent.created',
    description: 'A new agent deployment was saved.',
    scope: 'agents:read',
    data: Type.Object({ agent_id: Type.String(), status: Type.String() }),
  },
  {
    type: 'agent.updated',
    description: 'Master data, chargeback rate or artifacts changed.',
    scope: 'agents:read',
    data: Type.Object({ agent_id: Type.String(), changed_fields: ChangedFields }),
  },
  {
    type: 'agent.archived',
    description: 'The agent deployment was retired.',
    scope: 'agents:read',
    data: Type.Object({ agent_id: Type.String(), status: Type.Literal('retired') }),
  },
  {
    type: 'catalog_entry.completed',
    description: 'Generation finished, the record is ready.',
    scope: 'catalog:read',
    data: Type.Object(
      {
        catalog_entry_id: Type.String({ description: 'The generated catalog entry.' }),
        agent_id: Type.String({ description: 'The agent it was generated from.' }),
        status: Type.Literal('completed'),
        record_url: Type.String({
          description: 'Where the record (PDF) is downloaded: `/v1/catalog-entries/{catalog_entry_id}/record`.',
        }),
      },
      { additionalProperties: false },
    ),
  },
  {
    type: 'catalog_entry.published',
    description: 'The entry is live in the internal catalog.',
    scope: 'catalog:read',
    data: Type.Object(
      {
        catalog_entry_id: Type.String({ description: 'The published catalog entry.' }),
        agent_id: Type.String({
          description: 'The agent it describes; its previously published entry, if any, is now `withdrawn`.',
        }),
        version: Type.Integer({ minimum: 1, description: "The entry's version (1, 2, … per agent)." }),
        status: Type.Literal('published'),
      },
      { additionalProperties: false },
    ),
  },
  {
    type: 'request.received',
    description: 'A team submitted an access request for an agent.',
    scope: 'requests:read',
    data: Type.Object({ request_id: Type.String(), agent_id: Type.String() }),
  },
  {
    type: 'request.scored',
    description: 'Matching scored an access request.',
    scope: 'requests:read',
    data: Type.Object({
      request_id: Type.String(),
      agent_id: Type.String(),
      score: Type.Integer({ minimum: 0, maximum: 100 }),
    }),
  },
  {
    type: 'session.confirmed',
    description: 'An evaluation session was confirmed by one side.',
    scope: 'sessions:write',
    data: Type.Object(
      {
        session_id: Type.String({ description: 'The confirmed evaluation session.' }),
        ...SessionSubject,
        confirmed_by: StringEnum(SESSION_SIDES, { description: 'The side that confirmed: `provider` or `team`.' }),
        confirmed_at: Type.String({ format: 'date-time' }),
      },
      { additionalProperties: false },
    ),
  },
  {
    type: 'session.cancelled',
    description: 'An evaluation session was cancelled by either side, or because its agent was retired.',
    scope: 'sessions:write',
    data: Type.Object(
      {
        session_id: Type.String({ description: 'The cancelled evaluation session.' }),
        ...SessionSubject,
        cancelled_by: StringEnum(SESSION_SIDES, {
          description: 'The side that cancelled (`provider` when the agent was retired).',
        }),
        reason: StringEnum(SESSION_CANCEL_REASONS, { description: 'The reason code; no free text.' }),
        cancelled_at: Type.String({ format: 'date-time' }),
      },
      { additionalProperties: false },
    ),
  },
  {
    type: 'settlement.created',
    description:
      'A usage chargeback settlement was generated (one per consuming team and period), with its internal invoice.',
    scope: 'chargebacks:read',
    data: Type.Object(
      {
        settlement_id: Type.String({ description: 'The settlement: `/v1/chargebacks/settlements/{settlement_id}`.' }),
        team: Type.String({ description: 'The consuming team charged.' }),
        amount_cents: Type.Integer({
          description: "The settlement's net amount in cents (no VAT: within one organisation).",
        }),
        period: Type.String({
          pattern: '^[0-9]{4}-(0[1-9]|1[0-2])$',
          description: "The settled period, `YYYY-MM` in the account's time zone.",
        }),
        internal_invoice_id: Type.String({
          description: 'The internal invoice of the settlement (its PDF follows: `/v1/internal-invoices/{id}/pdf`).',
        }),
        internal_invoice_number: Type.String({
          description: 'Its number, gapless per account and year (series `chargeback`): `2026-000001`.',
        }),
        late_amount_cents: Type.Integer({
          description:
            'The part of `amount_cents` for usage of months before the period (reported after that month was settled, or of a month no run settled).',
        }),
      },
      { additionalProperties: false },
    ),
  },
] as const satisfies EventCatalogue;

export type AgentPlatformEvents = typeof AGENT_PLATFORM_EVENTS;
