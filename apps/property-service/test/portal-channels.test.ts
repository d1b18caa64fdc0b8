import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFtpServer, startSftpServer, type FtpServer, type SftpServer } from '@platform/testkit';
import { createChannel, startPropertyApp, type PropertyTestContext } from './helpers.js';
import { createPortalChannel, sftpSettings } from './portal-helpers.js';

let ctx: PropertyTestContext;
let sftp: SftpServer;
let readOnly: SftpServer;
let ftps: FtpServer;
beforeAll(async () => {
  [ctx, sftp, readOnly, ftps] = await Promise.all([
    startPropertyApp(),
    startSftpServer(),
    startSftpServer({ readOnly: true }),
    startFtpServer({ tls: true }),
  ]);
});
afterAll(() => Promise.all([ctx.close(), sftp.stop(), readOnly.stop(), ftps.stop()]));

const channelCount = () => ctx.db.prisma.channel.count({ where: { type: 'portal' } });

describe('portal channels', () => {
  it('connects on creation, keeps the secret encrypted and never shows it', async () => {
    const res = await createPortalChannel(ctx, sftpSettings(sftp));
    expect(res.statusCode).toBe(201);
    const channel = res.json();
    expect(channel).toMatchObject({
      type: 'portal',
      portal: {
        transfer: 'sftp',
        host: sftp.host,
        port: sftp.port,
        folder: sftp.folder,
        anbieternr: 'ANB-42',
        mode: 'teil',
      },
    });
    expect(JSON.stringify(channel)).not.toContain('PRIVATE KEY');
    // The server's host key seen at the first login is kept: transfers require it from now on.
    expect(channel.portal.host_key_fingerprint).toBe(sftp.hostKeyFingerprint);
    expect((await ctx.send('GET', `/v1/channels/${channel.id}`)).json().portal).toEqual(channel.portal);
    const stored = await ctx.db.prisma.portalAccount.findUniqueOrThrow({ where: { channel_id: channel.id } });
    expect(stored.secret_encrypted).not.toContain('PRIVATE KEY');
    expect(ctx.webhooks.secrets.decrypt(stored.secret_encrypted)).toBe(sftp.privateKey);
    // The connection check leaves nothing behind in the folder.
    expect(sftp.list()).toEqual([]);
    const status = await ctx.send('GET', `/v1/channels/${channel.id}/portal-status`);
    expect(status.json()).toMatchObject({
      full_transfer_due: true,
      failures_in_a_row: 0,
      halted_reason: null,
      listings: [],
    });
  });

  it.each([
    ['a wrong key', () => sftpSettings(sftp, { username: 'nobody-here' }), 'portal.secret', /refused the login/],
    ['a closed port', () => sftpSettings(sftp, { port: 1 }), 'portal.port', /refused the connection/],
    [
      'a name that does not resolve',
      () => sftpSettings(sftp, { host: 'portal.nonexistent.invalid' }),
      'portal.host',
      /does not resolve/,
    ],
    [
      'a folder that does not exist',
      () => sftpSettings(sftp, { folder: `${sftp.folder}/nicht-da` }),
      'portal.folder',
      /does not exist/,
    ],
    [
      'a read-only account',
      () => sftpSettings(readOnly, { folder: readOnly.folder }),
      'portal.folder',
      /may not write/,
    ],
    [
      'an SSH server with another host key than the one named',
      () => sftpSettings(sftp, { host_key_fingerprint: `SHA256:${'A'.repeat(43)}` }),
      'portal.host_key_fingerprint',
      /did not show the host key/,
    ],
    [
      'an FTPS server whose certificate is not trusted',
      () => ({
        transfer: 'ftps',
        host: ftps.host,
        port: ftps.port,
        username: ftps.username,
        secret: ftps.password,
        folder: ftps.folder,
        anbieternr: 'A1',
      }),
      'portal.transfer',
      /TLS handshake/,
    ],
  ])('refuses %s with a 422 that says what failed, and stores nothing', async (_case, settings, field, message) => {
    const before = await channelCount();
    const res = await createPortalChannel(ctx, settings());
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ code: 'validation_failed', details: [{ field, reason: 'not_allowed' }] });
    expect(res.json().message).toMatch(message);
    expect(res.body).not.toContain('PRIVATE KEY');
    expect(await channelCount()).toBe(before);
  });

  it('asks a portal channel for its account and refuses one on other types', async () => {
    const missing = await ctx.send('POST', '/v1/channels', { type: 'portal', name: 'Ohne Zugang' });
    expect(missing.statusCode).toBe(422);
    expect(missing.json().details).toEqual([{ field: 'portal', reason: 'missing' }]);
    const extra = await ctx.send('POST', '/v1/channels', {
      type: 'website',
      name: 'Mit Zugang',
      portal: sftpSettings(sftp),
    });
    expect(extra.statusCode).toBe(422);
    expect(extra.json().details).toEqual([{ field: 'portal', reason: 'not_allowed' }]);
    const website = await createChannel(ctx, 'website');
    expect((await ctx.send('GET', `/v1/channels/${website.id}/portal-status`)).statusCode).toBe(409);
    expect((await ctx.send('POST', `/v1/channels/${website.id}/retransfer`)).statusCode).toBe(409);
  });

  it('changes the account with a merge patch, connecting again; a failing change keeps the old settings', async () => {
    const channel = (await createPortalChannel(ctx, sftpSettings(sftp))).json();
    const bad = await ctx.send('PATCH', `/v1/channels/${channel.id}`, { portal: { username: 'niemand' } });
    expect(bad.statusCode).toBe(422);
    expect((await ctx.send('GET', `/v1/channels/${channel.id}`)).json().portal.username).toBe(sftp.username);
    const renamed = await ctx.send('PATCH', `/v1/channels/${channel.id}`, {
      portal: { anbieternr: 'NEU-7', mode: 'voll' },
    });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json().portal).toMatchObject({ anbieternr: 'NEU-7', mode: 'voll', username: sftp.username });
    const removed = await ctx.send('PATCH', `/v1/channels/${channel.id}`, { portal: null });
    expect(removed.statusCode).toBe(422);
  });

  it("is the account's own: another tenant gets 404 for its status, transfers and retransfer", async () => {
    const channel = (await createPortalChannel(ctx, sftpSettings(sftp))).json();
    for (const [method, path] of [
      ['GET', `/v1/channels/${channel.id}`],
      ['GET', `/v1/channels/${channel.id}/portal-status`],
      ['GET', `/v1/channels/${channel.id}/transfers`],
      ['POST', `/v1/channels/${channel.id}/retransfer`],
    ] as const)
      expect((await ctx.send(method, path, undefined, ctx.other.key)).statusCode).toBe(404);
  });
});

describe('portal hosts', () => {
  it('refuses a loopback or private host where the deployment does not allow private targets', async () => {
    const strict = await startPropertyApp({ allowPrivateTargets: false });
    try {
      const res = await createPortalChannel(strict, sftpSettings(sftp));
      expect(res.statusCode).toBe(422);
      expect(res.json()).toMatchObject({ details: [{ field: 'portal.host', reason: 'not_allowed' }] });
      expect(res.json().message).toMatch(/private, loopback or reserved/);
    } finally {
      await strict.close();
    }
  });
});
