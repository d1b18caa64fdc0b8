import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsImport from 'ajv-formats';
import type { DocumentName, OpenApiDocument, ResponseObject } from './documents.js';
import type { Operation } from './operations.js';

// ajv-formats is CommonJS with a default export.
const addFormats = addFormatsImport as unknown as typeof addFormatsImport.default;

/** A response as it came over the wire. */
export interface WireResponse {
  status: number;
  headers: Headers;
  /** The body as text (empty for none); binary bodies are not parsed. */
  body: string;
}

const escapeToken = (token: string) => token.replace(/~/g, '~0').replace(/\//g, '~1');
const mediaType = (contentType: string | null) => (contentType ?? '').split(';')[0]!.trim().toLowerCase();

/**
 * Checks responses against the OpenAPI 3.1 documents (JSON Schema 2020-12): the status is
 * documented for the operation, the content type is one it lists, a JSON body matches the schema
 * of that status and media type, and documented headers are present and valid. Returns the
 * problems in words; none means the response keeps the contract.
 */
export class ResponseValidator {
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false, validateFormats: true });
  private readonly compiled = new Map<string, ValidateFunction>();
  private readonly inline = new WeakMap<object, ValidateFunction>();

  constructor(documents: Partial<Record<DocumentName, OpenApiDocument>>) {
    addFormats(this.ajv);
    for (const [name, doc] of Object.entries(documents)) this.ajv.addSchema(doc as object, name);
  }

  validate(operation: Operation, response: WireResponse): string[] {
    const declared = documentedResponse(operation, response.status);
    if (!declared)
      return [
        `status ${response.status} is not documented (documented: ${Object.keys(operation.definition.responses).join(', ')})`,
      ];
    const [statusKey, definition] = declared;
    const pointer = `${operation.pointer}/responses/${statusKey}`;
    return [
      ...this.checkHeaders(operation.document, pointer, definition, response.headers),
      ...this.checkBody(operation.document, pointer, definition, response),
    ];
  }

  /** Validates a value against the schema at `pointer` of a document; the problems in words. */
  check(document: DocumentName, pointer: string, value: unknown): string[] {
    const validate = this.validatorFor(document, pointer);
    return validate(value) ? [] : describe(validate.errors);
  }

  /** Validates a value against a schema given inline (e.g. a webhook event type's data schema). */
  checkAgainst(schema: object, value: unknown): string[] {
    let validate = this.inline.get(schema);
    if (!validate) {
      validate = this.ajv.compile(schema);
      this.inline.set(schema, validate);
    }
    return validate(value) ? [] : describe(validate.errors);
  }

  private checkBody(
    document: DocumentName,
    pointer: string,
    definition: ResponseObject,
    response: WireResponse,
  ): string[] {
    const content = definition.content ?? {};
    const types = Object.keys(content);
    if (types.length === 0)
      return response.body.length === 0
        ? []
        : [`status ${response.status} documents no body, got ${response.body.length} bytes`];
    const actual = mediaType(response.headers.get('content-type'));
    const documentedType =
      types.find((t) => t.toLowerCase() === actual) ??
      types.find((t) => t.endsWith('/*') && actual.startsWith(t.slice(0, -1)));
    if (!documentedType) return [`content type "${actual}" is not one of the documented ${types.join(', ')}`];
    if (!(actual === 'application/json' || actual.endsWith('+json')) || !content[documentedType]!.schema) return [];
    let body: unknown;
    try {
      body = JSON.parse(response.body);
    } catch {
      return ['the body is not valid JSON'];
    }
    return this.check(document, `${pointer}/content/${escapeToken(documentedType)}/schema`, body).map(
      (p) => `body ${p}`,
    );
  }

  private checkHeaders(
    document: DocumentName,
    pointer: string,
    definition: ResponseObject,
    headers: Headers,
  ): string[] {
    const problems: string[] = [];
    for (const [name, header] of Object.entries(definition.headers ?? {})) {
      const value = headers.get(name);
      if (value === null) {
        if (header.required) problems.push(`header ${name} is required and missing`);
        continue;
      }
      if (!header.schema) continue;
      const schemaPointer = `${pointer}/headers/${escapeToken(name)}/schema`;
      const asNumber = Number(value);
      const candidates = value.trim() !== '' && Number.isFinite(asNumber) ? [value, asNumber] : [value];
      const failures = candidates.map((candidate) => this.check(document, schemaPointer, candidate));
      if (failures.every((f) => f.length > 0)) problems.push(`header ${name} "${value}" ${failures[0]!.join('; ')}`);
    }
    return problems;
  }

  private validatorFor(document: DocumentName, pointer: string): ValidateFunction {
    const key = `${document}#${pointer}`;
    let validate = this.compiled.get(key);
    if (!validate) {
      validate = this.ajv.compile({ $ref: key });
      this.compiled.set(key, validate);
    }
    return validate;
  }
}

/** The documented response for a status: exact, then `4XX`-style ranges, then `default`. */
function documentedResponse(operation: Operation, status: number): [string, ResponseObject] | undefined {
  const responses = operation.definition.responses;
  for (const key of [String(status), `${String(status)[0]}XX`, 'default']) {
    if (responses[key]) return [key, responses[key]!];
  }
  return undefined;
}

function describe(errors: ErrorObject[] | null | undefined): string[] {
  return (errors ?? [])
    .slice(0, 5)
    .map(
      (e) =>
        `${e.instancePath || '/'} ${e.message ?? 'is invalid'}${e.params && 'allowedValues' in e.params ? ` (${(e.params.allowedValues as unknown[]).join(', ')})` : ''}${e.params && 'additionalProperty' in e.params ? ` (${String(e.params.additionalProperty)})` : ''}`,
    );
}
