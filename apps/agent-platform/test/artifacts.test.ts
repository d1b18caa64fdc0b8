import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, whileHeld } from '@platform/testkit';
import { pdf, png, zip } from '@platform/uploads/testing';
import { encryptedPdf, truncated } from '@platform/uploads/testing/hostile';
import { buildAgentPlatformApp } from '../src/app.js';
import { agentPlatformDescriptor } from '../src/descriptor.js';
import { artifactParts, blobFiles, uploadArtifact } from './artifact-helpers.js';
import type { AgentPlatformTestContext } from './helpers.js';
import { createAgent } from './security/agents.js';

const LIMIT = 64 * 1024;
let ctx: AgentPlatformTestContext;
beforeAll(async () => {
  ctx = await startTestApp(agentPlatformDescriptor, (deps) =>
    buildAgentPlatformApp({ ...deps, artifactMaxBytes: LIMIT }),
  );
});
afterAll(() => ctx.close());

const sha = (data: Buffer) => createHash('sha256').update(data).digest('hex');
const agent = (id: string) => ctx.send('GET', `/v1/agents/${id}`).then((r) => r.json());

describe('agent artifacts', () => {
  it.each([
    ['JSON', Buffer.from('{"temperature": 0.2}'), 'application/json', 'config.json', 'application/json'],
    ['Markdown', Buffer.from('# Model card\n\nÜbersicht – Größe\n'), 'text/markdown', 'card.md', 'text/markdown'],
    ['plain text', Buffer.from('You are a helpful assistant.\n'), 'text/plain', 'prompt.txt', 'text/plain'],
    [
      'YAML (text/yaml)',
      Buffer.from('model: gpt\nlimits:\n  tokens: 100\n'),
      'text/yaml',
      'config.yaml',
      'application/yaml',
    ],
    ['PDF', pdf(), 'application/pdf', 'report.pdf', 'application/pdf'],
    ['ZIP', zip(), 'application/zip', 'bundle.zip', 'application/zip'],
    [
      'ZIP declared as octet-stream',
      zip('b.txt', 'other'),
      'application/octet-stream',
      'bundle.zip',
      'application/zip',
    ],
  ])('stores %s and serves it back', async (_name, data, declared, filename, stored) => {
    const id = await createAgent(ctx);
    const res = await uploadArtifact(
      ctx,
      id,
      artifactParts(data, declared, filename, [
        { name: 'kind', value: 'configuration' },
        { name: 'version', value: 'v2' },
      ]),
    );
    expect(res.statusCode).toBe(201);
    const artifact = res.json();
    expect(artifact).toMatchObject({
      agent_id: id,
      kind: 'configuration',
      version: 'v2',
      content_type: stored,
      size: data.length,
      sha256: sha(data),
      filename,
    });
    const download = await ctx.send('GET', artifact.content_url);
    expect(download.rawPayload.equals(data)).toBe(true);
    expect(download.headers.etag).toBe(`"${sha(data)}"`);
    expect(download.headers['content-type']).toContain(stored);
    expect(download.headers['content-disposition']).toBe(
      `attachment; filename="${filename}"; filename*=UTF-8''${filename}`,
    );
    const cached = await ctx.app.inject({
      method: 'GET',
      url: artifact.content_url,
      headers: { apikey: ctx.tenant.key, 'if-none-match': `W/"x", "${sha(data)}"` },
    });
    expect(cached.statusCode).toBe(304);
    expect((await agent(id)).artifact_count).toBe(1);
  });

  it.each([
    ['an encrypted PDF', encryptedPdf(), /encrypted/],
    ['a truncated PDF', truncated(pdf('cut'), 0.4), /PDF cannot be read|no pages/],
    [
      'a PDF without pages',
      Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n'),
      /PDF/,
    ],
  ])(
    'parses a PDF at upload, apart from the service: refuses %s with 422 (file, invalid_format) and keeps nothing',
    async (_name, data, message) => {
      const id = await createAgent(ctx);
      const res = await uploadArtifact(ctx, id, artifactParts(data, 'application/pdf', 'report.pdf'));
      expect(res.statusCode, res.body).toBe(422);
      expect(res.json()).toMatchObject({
        code: 'validation_failed',
        details: [{ field: 'file', reason: 'invalid_format' }],
        message: expect.stringMatching(message),
      });
      expect(await ctx.storage.exists(sha(data))).toBe(false);
      expect((await agent(id)).artifact_count).toBe(0);
    },
  );

  it.each([
    ['a PNG', png(2, 2), 'image/png'],
    ['a PDF declared as Markdown', pdf(), 'text/markdown'],
    ['text that is not UTF-8', Buffer.from([0x23, 0x20, 0xff, 0xfe, 0x0a]), 'text/markdown'],
    ['text without a declared type', Buffer.from('hello'), 'application/octet-stream'],
    [
      'an executable script declared as JSON',
      Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0, ...Array(60).fill(0)]),
      'application/json',
    ],
  ])('refuses %s with 422 (file, not_allowed) and keeps nothing', async (_name, data, declared) => {
    const id = await createAgent(ctx);
    const res = await uploadArtifact(ctx, id, artifactParts(data, declared, 'x.md'));
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({
      code: 'validation_failed',
      details: [{ field: 'file', reason: 'not_allowed' }],
    });
    expect(await ctx.storage.exists(sha(data))).toBe(false);
    expect((await agent(id)).artifact_count).toBe(0);
  });

  it('refuses a file over the limit with 413 and stores nothing', async () => {
    const id = await createAgent(ctx);
    const res = await uploadArtifact(ctx, id, artifactParts(Buffer.alloc(LIMIT + 1, 0x61), 'text/plain', 'big.txt'));
    expect(res.statusCode).toBe(413);
    expect(res.json().code).toBe('payload_too_large');
    expect((await blobFiles(ctx.blobRoot)).filter((f) => f.includes('.tmp'))).toEqual([]);
    expect(await ctx.db.prisma.agentArtifact.count({ where: { agent_id: id } })).toBe(0);
  });

  it('refuses uploads to a retired agent with 409', async () => {
    const id = await createAgent(ctx);
    expect((await ctx.send('POST', `/v1/agents/${id}/retire`)).statusCode).toBe(200);
    const data = Buffer.from('retired prompt');
    const res = await uploadArtifact(ctx, id, artifactParts(data, 'text/plain', 'p.txt'));
    expect(res.statusCode).toBe(409);
    expect(await ctx.storage.exists(sha(data))).toBe(false);
  });

  it('lists newest first, changes labels, deletes, counts and emits agent.updated ["artifacts"]', async () => {
    const id = await createAgent(ctx);
    const first = (await uploadArtifact(ctx, id, artifactParts(Buffer.from('first'), 'text/plain', 'a.txt'))).json();
    ctx.clock.now = new Date(ctx.clock.now.getTime() + 1000);
    const second = (await uploadArtifact(ctx, id, artifactParts(Buffer.from('second'), 'text/plain', 'b.txt'))).json();
    const list = (await ctx.send('GET', `/v1/agents/${id}/artifacts?limit=1`)).json();
    expect(list.data.map((a: { id: string }) => a.id)).toEqual([second.id]);
    const next = (await ctx.send('GET', `/v1/agents/${id}/artifacts?limit=1&cursor=${list.page.next_cursor}`)).json();
    expect(next.data.map((a: { id: string }) => a.id)).toEqual([first.id]);
    const patched = await ctx.send('PATCH', `/v1/agents/${id}/artifacts/${first.id}`, {
      version: 'v3',
      kind: 'prompt',
    });
    expect(patched.json()).toMatchObject({ version: 'v3', kind: 'prompt' });
    expect((await agent(id)).artifact_count).toBe(2);
    expect((await ctx.send('DELETE', `/v1/agents/${id}/artifacts/${first.id}`)).statusCode).toBe(204);
    expect((await agent(id)).artifact_count).toBe(1);
    expect(await ctx.storage.exists(first.sha256)).toBe(false);
    const events = await ctx.db.prisma.outboxEvent.findMany({ where: { type: 'agent.updated' } });
    const mine = events.map((e) => JSON.parse(e.payload).data).filter((d: { agent_id: string }) => d.agent_id === id);
    expect(mine).toEqual(Array(3).fill({ agent_id: id, changed_fields: ['artifacts'] }));
  });

  it('keeps artifact_count right under concurrent uploads', async () => {
    const id = await createAgent(ctx);
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        uploadArtifact(ctx, id, artifactParts(Buffer.from(`prompt ${i}`), 'text/plain', 'p.txt')),
      ),
    );
    expect(results.map((r) => r.statusCode)).toEqual(Array(8).fill(201));
    expect((await agent(id)).artifact_count).toBe(8);
  });

  it('counts two uploads that wait on the same agent row one after the other', async () => {
    const id = await createAgent(ctx);
    const { result, waited } = await whileHeld(
      ctx.db,
      (tx) => tx.$queryRaw`SELECT id FROM agent_deployments WHERE id = ${id} FOR UPDATE`,
      () =>
        Promise.all(
          [1, 2].map((i) => uploadArtifact(ctx, id, artifactParts(Buffer.from(`held ${i}`), 'text/plain', 'p.txt'))),
        ),
      2,
    );
    expect(waited).toBe(2);
    expect(result.map((r) => r.statusCode)).toEqual([201, 201]);
    expect((await agent(id)).artifact_count).toBe(2);
  });
});
