import multipart from '@fastify/multipart';
import { Type, type TProperties } from '@sinclair/typebox';
import type { FastifyInstance, FastifySchemaCompiler } from 'fastify';
import { validatorCompiler } from '@platform/http';
import { FILE_FIELD } from './receive.js';

/**
 * Makes `multipart/form-data` readable in this (encapsulated) context. Files are streamed by
 * `receiveUpload`, which sets the limits; an over-limit file is marked truncated, not thrown.
 */
export async function registerMultipart(app: FastifyInstance): Promise<void> {
  await app.register(multipart, { throwFileSizeLimit: false });
}

/**
 * The route schema parts of an upload: the multipart body for the OpenAPI document (the file and
 * the fields); the body itself is read as a stream by `receiveUpload`, which validates it.
 */
export function multipartBody(fields: TProperties, required: readonly string[], description: string) {
  return {
    consumes: ['multipart/form-data'],
    body: Type.Object(
      { [FILE_FIELD]: Type.String({ format: 'binary', description }), ...fields },
      { required: [FILE_FIELD, ...required] },
    ),
  };
}

/** Route option of an upload route: params and query are validated as usual, the streamed body by `receiveUpload`. */
export const multipartValidator: FastifySchemaCompiler<object> = (route) =>
  route.httpPart === 'body' ? () => true : validatorCompiler(route);

/** The 200 response of a download route in the content types it may have (and its 304), for the OpenAPI document. */
export function downloadResponses(description: string, contentTypes: readonly string[]) {
  return {
    200: {
      description,
      content: Object.fromEntries(contentTypes.map((type) => [type, { schema: Type.String({ format: 'binary' }) }])),
    },
    304: Type.Null({ description: 'Not modified: the `If-None-Match` header named the current ETag.' }),
  };
}
