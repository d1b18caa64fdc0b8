import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { multipart, type FormPart } from '@platform/uploads/testing';
import type { AgentPlatformTestContext } from './helpers.js';

/** Every file under the blob root, temporary ones included. */
export async function blobFiles(root: string): Promise<string[]> {
  const entries = await readdir(root, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
}

/** POSTs a multipart upload to an agent's artifacts. */
export function uploadArtifact(
  ctx: AgentPlatformTestContext,
  agentId: string,
  parts: readonly FormPart[],
  key = ctx.tenant.key,
) {
  const { payload, contentType } = multipart(parts);
  return ctx.app.inject({
    method: 'POST',
    url: `/v1/agents/${agentId}/artifacts`,
    headers: { apikey: key, 'content-type': contentType },
    payload,
  });
}

export const artifactParts = (
  data: Buffer,
  type: string,
  filename: string,
  extra: FormPart[] = [{ name: 'kind', value: 'model_card' }],
): FormPart[] => [...extra, { name: 'file', filename, type, data }];
