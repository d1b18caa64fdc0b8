import { DOCUMENT_NAMES, loadDocument, type DocumentName, type OpenApiDocument } from './documents.js';
import { OperationIndex, type Operation } from './operations.js';
import { ResponseValidator } from './response-validator.js';

/** One response seen by the recorder, with what is wrong with it (nothing, ideally). */
export interface RecordedResponse {
  operationId: string | undefined;
  document: DocumentName | undefined;
  method: string;
  path: string;
  status: number;
  problems: string[];
}

const TEXTUAL = /^(application\/(.+\+)?json|text\/|application\/(xml|problem\+json))/;
const isSuccess = (status: number) => (status >= 200 && status < 300) || status === 304;

/**
 * Wraps `fetch` so that every response is checked against the documents as it passes: give
 * `recorder.fetch` to the typed client (or call it directly) and ask `violations()` and
 * `unexercised()` at the end.
 */
export class ContractRecorder {
  readonly index: OperationIndex;
  readonly validator: ResponseValidator;
  readonly responses: RecordedResponse[] = [];

  constructor(names: readonly DocumentName[] = DOCUMENT_NAMES) {
    const documents = Object.fromEntries(names.map((name) => [name, loadDocument(name)])) as Partial<
      Record<DocumentName, OpenApiDocument>
    >;
    this.index = new OperationIndex(documents);
    this.validator = new ResponseValidator(documents);
  }

  /** A fetch that records and checks every response it returns (the response itself is untouched). */
  readonly fetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const request = new Request(input, init);
    const response = await globalThis.fetch(request);
    await this.observe(request.method, new URL(request.url).pathname, response);
    return response;
  };

  /** Checks one response (its body read from a clone). */
  async observe(method: string, pathname: string, response: Response): Promise<RecordedResponse> {
    const operation = this.index.match(method, pathname);
    const bytes = Buffer.from(await response.clone().arrayBuffer());
    const contentType = response.headers.get('content-type') ?? '';
    const body = TEXTUAL.test(contentType) ? bytes.toString('utf8') : bytes.length > 0 ? '<binary>' : '';
    const problems = operation
      ? this.validator.validate(operation, { status: response.status, headers: response.headers, body })
      : [`no operation in the documents for ${method} ${pathname}`];
    const recorded = {
      operationId: operation?.operationId,
      document: operation?.document,
      method,
      path: pathname,
      status: response.status,
      problems,
    };
    this.responses.push(recorded);
    return recorded;
  }

  /** Responses that broke the contract, one line each. */
  violations(): string[] {
    return this.responses
      .filter((r) => r.problems.length > 0)
      .map((r) => `${r.method} ${r.path} → ${r.status} (${r.operationId ?? 'undocumented'}): ${r.problems.join('; ')}`);
  }

  /** Operations of `document` without a single successful response seen. */
  unexercised(document: DocumentName): Operation[] {
    const done = new Set(
      this.responses.filter((r) => r.document === document && isSuccess(r.status)).map((r) => r.operationId),
    );
    return this.index.all.filter((o) => o.document === document && !done.has(o.operationId));
  }

  /** The statuses seen per operation of `document` (for a report). */
  statusesSeen(document: DocumentName): Map<string, Set<number>> {
    const seen = new Map<string, Set<number>>();
    for (const r of this.responses) {
      if (r.document !== document || !r.operationId) continue;
      if (!seen.has(r.operationId)) seen.set(r.operationId, new Set());
      seen.get(r.operationId)!.add(r.status);
    }
    return seen;
  }
}
