import type { TSchema } from '@sinclair/typebox';

/** One event type a service emits, with the scope a key needs to subscribe and its `data` schema. */
export interface EventDefinition {
  type: string;
  description: string;
  /** Subscribing requires this scope: a key may only receive data it could read. */
  scope: string;
  data: TSchema;
}

export type EventCatalogue = readonly EventDefinition[];

/** How a service names its delivery headers (`X-Service-*` or `X-Platform-*`). */
export interface HeaderNames {
  event: string;
  delivery: string;
  signature: string;
}

export function headerNames(prefix: 'Service' | 'Platform'): HeaderNames {
  return { event: `X-${prefix}-Event`, delivery: `X-${prefix}-Delivery`, signature: `X-${prefix}-Signature` };
}

/** The property-marketing service sends `X-Service-*`, the agent platform `X-Platform-*`. */
export function headersForService(service: 'property' | 'agents'): HeaderNames {
  return headerNames(service === 'property' ? 'Service' : 'Platform');
}
