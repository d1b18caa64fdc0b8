import type { Static, TSchema } from '@sinclair/typebox';
import type { Service, SqlRunner } from '@platform/db';
import { recordEvent } from './outbox.js';

/** One event type a service emits, with the scope a key needs to subscribe and its `data` schema. */
export interface EventDefinition {
  type: string;
  description: string;
  /** Subscribing requires this scope: a key may only receive data it could read. */
  scope: string;
  data: TSchema;
}

export type EventCatalogue = readonly EventDefinition[];

/** The event types of a catalogue. */
export type EventType<C extends EventCatalogue> = C[number]['type'];

/** The `data` of one event type, as its schema in the catalogue says. */
export type EventData<C extends EventCatalogue, T extends EventType<C>> = Static<
  Extract<C[number], { type: T }>['data']
>;

/**
 * Writes an event of the catalogue into the outbox, in the caller's transaction. Type and `data`
 * are checked at compile time: a misspelt type or a wrong payload does not compile.
 */
export type EventEmitter<C extends EventCatalogue> = <T extends EventType<C>>(
  tx: SqlRunner,
  event: { accountId: string; type: T; data: EventData<C, T>; at: Date },
) => Promise<string>;

/** The typed `emit` of one service's catalogue. */
export function eventEmitter<const C extends EventCatalogue>(service: Service, _catalogue: C): EventEmitter<C> {
  return (tx, { accountId, type, data, at }) =>
    recordEvent(tx, { accountId, service, type, data: data as Record<string, unknown>, now: at });
}

/** How a service names its delivery headers, e.g. prefix `Service` → `X-Service-Event`. */
export interface HeaderNames {
  event: string;
  delivery: string;
  signature: string;
}

export function headerNames(prefix: string): HeaderNames {
  return { event: `X-${prefix}-Event`, delivery: `X-${prefix}-Delivery`, signature: `X-${prefix}-Signature` };
}
