import type { Middleware } from 'openapi-fetch';

export interface ClientOptions {
  /** Where the service answers, e.g. `https://api.example.com` (no `/v1`). */
  baseUrl: string;
  /** The API key (`pm_test_…`, `ap_live_…`), sent as the `apikey` header of every request. */
  apiKey: string;
  /** A fetch of your own (proxies, tests); the global fetch by default. */
  fetch?: (input: Request) => Promise<Response>;
  /** openapi-fetch middleware: sees every request and response (logging, tracing). */
  middleware?: Middleware[];
  /** Headers for every request besides the key (e.g. `Accept-Language`). */
  headers?: Record<string, string>;
}

/** A fresh key for `Idempotency-Key`: send the same one again when retrying the same request. */
export const idempotencyKey = (): string => globalThis.crypto.randomUUID();

/**
 * A body serializer for uploads (`bodySerializer: multipart`): the fields as multipart/form-data,
 * in their order, files (Blobs) last, since the service reads the fields before the file.
 */
export function multipart(body: object): FormData {
  const form = new FormData();
  const entries = Object.entries(body).filter(([, value]) => value !== undefined);
  for (const [name, value] of entries.filter(([, v]) => !(v instanceof Blob))) form.append(name, String(value));
  for (const [name, value] of entries.filter(([, v]) => v instanceof Blob))
    form.append(name, value as Blob, value instanceof File ? value.name : name);
  return form;
}
