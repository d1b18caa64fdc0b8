import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The published OpenAPI documents (openapi/*.json), by the name of their file. */
export const DOCUMENT_NAMES = ['property-api', 'leads-api', 'agent-platform-api', 'public-feeds-api'] as const;
export type DocumentName = (typeof DOCUMENT_NAMES)[number];

export interface OpenApiDocument {
  openapi: string;
  paths: Record<string, Record<string, OperationObject>>;
  components?: Record<string, unknown>;
}

export interface OperationObject {
  operationId?: string;
  parameters?: { name: string; in: string; required?: boolean; schema?: unknown }[];
  requestBody?: { content?: Record<string, unknown> };
  responses: Record<string, ResponseObject>;
}

export interface ResponseObject {
  description?: string;
  headers?: Record<string, { required?: boolean; schema?: unknown }>;
  content?: Record<string, { schema?: unknown }>;
}

const OPENAPI_DIR = fileURLToPath(new URL('../../../openapi/', import.meta.url));

export function loadDocument(name: DocumentName): OpenApiDocument {
  return JSON.parse(readFileSync(`${OPENAPI_DIR}${name}.json`, 'utf8')) as OpenApiDocument;
}
