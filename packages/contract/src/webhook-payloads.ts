import type { ResponseValidator } from './response-validator.js';

/** An entry of `GET /v1/event-types`: the event type and the JSON Schema of its `data`. */
export interface EventType {
  type: string;
  data_schema: unknown;
}

const ENVELOPE = {
  type: 'object',
  required: ['id', 'type', 'created_at', 'data'],
  additionalProperties: false,
  properties: {
    id: { type: 'string', minLength: 1 },
    type: { type: 'string' },
    created_at: { type: 'string', format: 'date-time' },
    data: { type: 'object' },
  },
};

export interface PayloadCheck {
  /** How many deliveries of each type were checked. */
  checked: Record<string, number>;
  problems: string[];
}

/**
 * Checks delivered webhook bodies: the envelope (`id`, `type`, `created_at`, `data`), a type the
 * service lists, and `data` against that type's published schema.
 */
export function checkWebhookPayloads(
  validator: ResponseValidator,
  eventTypes: readonly EventType[],
  bodies: readonly Buffer[],
): PayloadCheck {
  const schemas = new Map(eventTypes.map((t) => [t.type, t.data_schema]));
  const checked: Record<string, number> = {};
  const problems: string[] = [];
  for (const raw of bodies) {
    let event: { id?: string; type?: string; data?: unknown };
    try {
      event = JSON.parse(raw.toString('utf8')) as typeof event;
    } catch {
      problems.push('a delivery body is not valid JSON');
      continue;
    }
    const label = `${event.type ?? '?'} ${event.id ?? '?'}`;
    problems.push(...validator.checkAgainst(ENVELOPE, event).map((p) => `${label}: envelope ${p}`));
    const schema = event.type === undefined ? undefined : schemas.get(event.type);
    if (!schema || typeof schema !== 'object') {
      problems.push(`${label}: the type is not listed by GET /v1/event-types`);
      continue;
    }
    problems.push(...validator.checkAgainst(schema, event.data).map((p) => `${label}: data ${p}`));
    checked[event.type!] = (checked[event.type!] ?? 0) + 1;
  }
  return { checked, problems };
}
