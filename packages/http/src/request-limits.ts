import type { FastifyRequest } from 'fastify';
import type { Constraint } from './detail-messages.js';
import { ApiError } from './errors.js';

/** The server's default body limit (1 MiB); routes that take files set their own. */
export const DEFAULT_BODY_LIMIT = 1_048_576;

const inWords = (bytes: number) =>
  bytes % 1_048_576 === 0 ? `${bytes / 1_048_576} MiB` : bytes % 1024 === 0 ? `${bytes / 1024} KiB` : `${bytes} bytes`;

/** 413 naming the limit the body broke, in words and as `max_bytes`. */
export function tooLargeError(limit: number = DEFAULT_BODY_LIMIT): ApiError {
  return new ApiError('payload_too_large', {
    message: `The request body is larger than the limit of ${inWords(limit)} (${limit} bytes).`,
    messageDe: `Der Anfrageinhalt ist größer als die Grenze von ${inWords(limit)} (${limit} Bytes).`,
    details: [{ field: 'body', reason: 'too_long', constraint: { max_bytes: limit } }],
  });
}

/** The bounds of the route's `limit` query parameter, for a `limit` the coercion turned into Infinity. */
export function queryLimitConstraint(request: FastifyRequest): Constraint {
  const querystring = request.routeOptions.schema?.querystring as
    { properties?: { limit?: { minimum?: number; maximum?: number } } } | undefined;
  const { minimum, maximum } = querystring?.properties?.limit ?? {};
  return { ...(minimum !== undefined ? { minimum } : {}), ...(maximum !== undefined ? { maximum } : {}) };
}
