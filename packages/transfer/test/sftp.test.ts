import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, startSftpServer, type SftpServer } from '@platform/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkDrop, deliverFile, fetchFile, listDrop, partName, type Drop } from '../src/index.js';
import { dropFailure, generated, MiB, sha256 } from './helpers.js';

let server: SftpServer;
let readOnly: SftpServer;
let drop: Drop;
const keys = mkdtempSync(join(tmpdir(), 'sftp-keys-'));

beforeAll(async () => {
  [server, readOnly] = await Promise.all([startSftpServer(), startSftpServer({ readOnly: true })]);
  drop = {
    protocol: 'sftp',
    host: server.host,
    port: server.port,
    username: server.username,
    secret: server.privateKey,
    folder: server.folder,
    hostKeyFingerprint: server.hostKeyFingerprint,
  };
});
afterAll(async () => {
  await Promise.all([server?.stop(), readOnly?.stop()]);
  rmSync(keys, { recursive: true, force: true });
});

describe('SFTP drop (OpenSSH sshd)', () => {
  it('passes the check and leaves no probe file behind', async () => {
    await checkDrop(drop);
    expect(server.list()).toEqual([]);
  });

  it('delivers a Buffer under its final name only, readable back byte for byte', async () => {
    const content = Buffer.from('<openimmo>…</openimmo>\n'.repeat(1000));
    expect(await deliverFile(drop, 'listing.zip', content)).toEqual({ bytes: content.length });
    expect(server.list()).toEqual(['listing.zip']);
    expect(server.readFile('listing.zip').equals(content)).toBe(true);
    expect(await listDrop(drop)).toEqual(['listing.zip']);
    expect((await fetchFile(drop, 'listing.zip')).equals(content)).toBe(true);
  });

  it('streams 20 MiB through a temporary name, never holding more than a few MiB ahead of the server', async () => {
    const source = generated(20 * MiB);
    let peakAhead = 0;
    let sawTemporary = false;
    let incompleteFinal = false;
    const watch = setInterval(() => {
      const files = server.list();
      const final = statSync(join(server.folder, 'big.zip'), { throwIfNoEntry: false });
      incompleteFinal ||= final !== undefined && final.size !== 20 * MiB;
      if (!files.includes(partName('big.zip'))) return;
      sawTemporary = true;
      const written = statSync(join(server.folder, partName('big.zip')), { throwIfNoEntry: false })?.size ?? 0;
      peakAhead = Math.max(peakAhead, source.produced() - written);
    }, 5);
    const result = await deliverFile(drop, 'big.zip', source.open).finally(() => clearInterval(watch));
    expect(result).toEqual({ bytes: 20 * MiB });
    expect({ sawTemporary, incompleteFinal }).toEqual({ sawTemporary: true, incompleteFinal: false });
    expect(sha256(server.readFile('big.zip'))).toBe(source.sha256);
    expect(server.list()).not.toContain(partName('big.zip'));
    expect(peakAhead).toBeLessThan(12 * MiB); // the 8 MiB write queue, not the file
  });

  it('replaces a file of the same name', async () => {
    await deliverFile(drop, 'again.zip', Buffer.from('first'));
    await deliverFile(drop, 'again.zip', Buffer.from('second'));
    expect(server.readFile('again.zip').toString()).toBe('second');
  });

  it('refuses another key as a permanent auth failure, naming neither key', async () => {
    execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', join(keys, 'other')]);
    const other = readFileSync(join(keys, 'other'), 'utf8');
    const error = await dropFailure(checkDrop({ ...drop, secret: other }), 'auth', true, other);
    expect(error.message).not.toContain(server.privateKey.split('\n')[1]);
  });

  it('refuses a password the server does not take as auth, without the password', async () => {
    await dropFailure(checkDrop({ ...drop, secret: 'pw-Hunter2-secret' }), 'auth', true, 'pw-Hunter2-secret');
  });

  it('reports a host that does not resolve as dns, transient', async () => {
    await dropFailure(checkDrop({ ...drop, host: 'nonexistent.invalid' }), 'dns', false, drop.secret);
  });

  it('reports a closed port as refused', async () => {
    await dropFailure(checkDrop({ ...drop, port: await freePort() }), 'refused', false, drop.secret);
  });

  it('refuses a server whose host key is not the expected one', async () => {
    const wrong = { ...drop, hostKeyFingerprint: readOnly.hostKeyFingerprint };
    await dropFailure(checkDrop(wrong), 'tls', true, drop.secret);
  });

  it('reports a read-only server as a permanent permission failure, leaving nothing', async () => {
    const ro = { ...drop, port: readOnly.port, folder: readOnly.folder, secret: readOnly.privateKey };
    delete ro.hostKeyFingerprint;
    await dropFailure(checkDrop(ro), 'permission', true, ro.secret);
    await dropFailure(deliverFile(ro, 'x.zip', Buffer.from('x')), 'permission', true, ro.secret);
    expect(readOnly.list()).toEqual([]);
  });

  it('reports a missing folder as folder_missing, permanent', async () => {
    const missing = { ...drop, folder: join(server.folder, 'nope') };
    await dropFailure(checkDrop(missing), 'folder_missing', true, drop.secret);
    await dropFailure(deliverFile(missing, 'x.zip', Buffer.from('x')), 'folder_missing', true, drop.secret);
  });

  it('times out on a server that accepts but never speaks', async () => {
    const { createServer } = await import('node:net');
    const silent = createServer(() => undefined).listen(0, '127.0.0.1');
    await new Promise((resolve) => silent.once('listening', resolve));
    const port = (silent.address() as { port: number }).port;
    const started = Date.now();
    await dropFailure(checkDrop({ ...drop, port }, { timeoutMs: 500 }), 'timeout', false, drop.secret);
    expect(Date.now() - started).toBeLessThan(5_000);
    silent.close();
  });
});
