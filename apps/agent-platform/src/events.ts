import { Type } from '@sinclair/typebox';
import type { EventCatalogue } from '@platform/webhooks';

const ChangedFields = Type.Array(Type.String(), { description: 'Dotted paths of the fields that changed, e.g. `chargeback_rate.amount_cents`.' });

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
        record_url: Type.String({ description: 'Where the record (PDF) is downloaded: `/v1/catalog-entries/{catalog_entry_id}/record`.' }),
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
        agent_id: Type.String({ description: 'The agent it describes; its previously published entry, if any, is now `withdrawn`.' }),
        version: Type.Integer({ minimum: 1, description: 'The entry\'s version (1, 2, … per agent).' }),
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
    data: Type.Object({ request_id: Type.String(), agent_id: Type.String(), score: Type.Integer({ minimum: 0, maximum: 100 }) }),
  },
  {
    type: 'session.confirmed',
    description: 'An evaluation session was confirmed.',
    scope: 'sessions:write',
    data: Type.Object({ session_id: Type.String(), agent_id: Type.String(), starts_at: Type.String({ format: 'date-time' }) }),
  },
  {
    type: 'session.cancelled',
    description: 'A session was cancelled by either side.',
    scope: 'sessions:write',
    data: Type.Object({ session_id: Type.String(), agent_id: Type.String(), cancelled_by: Type.String() }),
  },
  {
    type: 'settlement.created',
    description: 'A usage chargeback settlement was generated.',
    scope: 'chargebacks:read',
    data: Type.Object({ settlement_id: Type.String(), team: Type.String(), amount_cents: Type.Integer() }),
  },
] as const satisfies EventCatalogue;

export type AgentPlatformEvents = typeof AGENT_PLATFORM_EVENTS;
