import type { DocumentName, OpenApiDocument, OperationObject } from './documents.js';

export const HTTP_METHODS = ['get', 'put', 'post', 'patch', 'delete'] as const;

/** One operation of a document: where it lives, and what it may answer. */
export interface Operation {
  document: DocumentName;
  operationId: string;
  method: string;
  /** The path template, e.g. `/v1/properties/{propertyId}`. */
  path: string;
  /** JSON pointer of the operation in its document (for schema references). */
  pointer: string;
  definition: OperationObject;
}

const escapeToken = (token: string) => token.replace(/~/g, '~0').replace(/\//g, '~1');

/** Every operation of the documents, and the one a request (method, concrete path) belongs to. */
export class OperationIndex {
  readonly all: Operation[] = [];
  private readonly matchers: { method: string; pattern: RegExp; literalSegments: number; operation: Operation }[] = [];

  constructor(documents: Partial<Record<DocumentName, OpenApiDocument>>) {
    for (const [document, doc] of Object.entries(documents) as [DocumentName, OpenApiDocument][]) {
      for (const [path, item] of Object.entries(doc.paths)) {
        for (const method of HTTP_METHODS) {
          const definition = item[method];
          if (!definition?.operationId) continue;
          const operation = {
            document,
            operationId: definition.operationId,
            method,
            path,
            pointer: `/paths/${escapeToken(path)}/${method}`,
            definition,
          };
          this.all.push(operation);
          const source = path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+');
          this.matchers.push({
            method,
            pattern: new RegExp(`^${source}$`),
            literalSegments: path.split('/').filter((s) => s && !s.startsWith('{')).length,
            operation,
          });
        }
      }
    }
    // `/v1/catalog` before `/v1/catalog-entries/{id}`... and a literal segment before a parameter.
    this.matchers.sort((a, b) => b.literalSegments - a.literalSegments);
  }

  /** The operation answering `method` on `pathname` (no query string), if the documents have one. */
  match(method: string, pathname: string): Operation | undefined {
    const lower = method.toLowerCase();
    return this.matchers.find((m) => m.method === lower && m.pattern.test(pathname))?.operation;
  }

  byId(document: DocumentName, operationId: string): Operation | undefined {
    return this.all.find((o) => o.document === document && o.operationId === operationId);
  }
}
