import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { multipart, type FormPart } from '@platform/uploads/testing';
import type { PropertyTestContext } from './helpers.js';

/** Every file under the blob root, temporary ones included. */
export async function blobFiles(root: string): Promise<string[]> {
  const entries = await readdir(root, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
}

/** POSTs a multipart upload to a property's media. */
export function uploadMedia(
  ctx: PropertyTestContext,
  propertyId: string,
  parts: readonly FormPart[],
  key = ctx.tenant.key,
) {
  const { payload, contentType } = multipart(parts);
  return ctx.app.inject({
    method: 'POST',
    url: `/v1/properties/${propertyId}/media`,
    headers: { apikey: key, 'content-type': contentType },
    payload,
  });
}

export const photoParts = (
  data: Buffer,
  extra: FormPart[] = [],
  type = 'image/png',
  filename = 'photo.png',
): FormPart[] => [{ name: 'kind', value: 'photo' }, ...extra, { name: 'file', filename, type, data }];
