import type { Operation } from './operations.js';

export interface GenericErrorOptions {
  baseUrl: string;
  apiKey: string;
  /** A recording fetch (ContractRecorder.fetch): the answers are checked against the documents there. */
  fetch: (input: string, init?: RequestInit) => Promise<Response>;
  /** Only requests that cannot change anything (GET), for deployments that are not ours. */
  readOnly?: boolean;
}

/** What one generic check expected and got. */
export interface GenericErrorResult {
  operationId: string;
  check: 'no key' | 'wrong key' | 'unknown id' | 'invalid body';
  expected: number[];
  status: number;
}

const UNKNOWN_ID = 'zz_0000000000000000000000000';

/** The operation's path with every parameter replaced by `value`. */
export function concretePath(operation: Operation, value: (name: string) => string): string {
  return operation.path.replace(/\{([^}]+)\}/g, (_m, name: string) => encodeURIComponent(value(name)));
}

const documents = (operation: Operation, status: number) => String(status) in operation.definition.responses;
const isAuthenticated = (operation: Operation) => documents(operation, 401);
const hasPathParameters = (operation: Operation) => operation.path.includes('{');
const takesJsonBody = (operation: Operation) =>
  operation.definition.requestBody?.content?.['application/json'] !== undefined;

/**
 * The error answers every operation must give without any data of its own: 401 without a key
 * and with a wrong one, 404 for ids that do not exist, 400/422 for a body that is not the
 * documented one. Each request goes through the recording fetch, so every answer is also checked
 * against the documents.
 */
export async function exerciseGenericErrors(
  operations: readonly Operation[],
  options: GenericErrorOptions,
): Promise<GenericErrorResult[]> {
  const results: GenericErrorResult[] = [];
  const send = async (
    operation: Operation,
    check: GenericErrorResult['check'],
    expected: number[],
    path: string,
    init: RequestInit,
  ) => {
    const response = await options.fetch(`${options.baseUrl}${path}`, {
      method: operation.method.toUpperCase(),
      ...init,
    });
    await response.arrayBuffer();
    results.push({ operationId: operation.operationId, check, expected, status: response.status });
  };
  for (const operation of operations) {
    const writes = operation.method !== 'get';
    if (options.readOnly && writes) continue;
    const path = concretePath(operation, () => UNKNOWN_ID);
    const json = takesJsonBody(operation) ? { headers: { 'content-type': 'application/json' }, body: '{}' } : {};
    if (isAuthenticated(operation)) {
      await send(operation, 'no key', [401], path, writes ? json : {});
      await send(operation, 'wrong key', [401], path, {
        ...json,
        headers: { ...json.headers, apikey: wrongKeyLike(options.apiKey) },
      });
    }
    if (hasPathParameters(operation) && documents(operation, 404) && !writes) {
      await send(operation, 'unknown id', [404], path, { headers: { apikey: options.apiKey } });
    }
    if (!options.readOnly && takesJsonBody(operation) && !hasPathParameters(operation)) {
      await send(operation, 'invalid body', [400, 422], path, {
        headers: { apikey: options.apiKey, 'content-type': 'application/json' },
        body: '{"not_a_field": [1]}',
      });
    }
  }
  return results;
}

/** A key of the same shape and prefix that does not exist (its checksum is wrong). */
function wrongKeyLike(key: string): string {
  const last = key.at(-1) === 'A' ? 'B' : 'A';
  return key.slice(0, -1) + last;
}

/** The results whose status was not the expected one, one line each. */
export function unexpected(results: readonly GenericErrorResult[]): string[] {
  return results
    .filter((r) => !r.expected.includes(r.status))
    .map((r) => `${r.operationId} (${r.check}): expected ${r.expected.join(' or ')}, got ${r.status}`);
}
