import { createServer } from 'node:net';
import { Readable } from 'node:stream';
import { freePort, startFtpServer, type FtpServer } from '@platform/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkDrop, deliverFile, fetchFile, listDrop, partName, type Drop } from '../src/index.js';
import { dropFailure, generated, MiB, sha256 } from './helpers.js';

/** The secret in these tests: vsftpd is anonymous-only and takes any password. */
const PASSWORD = 'ftp-Passw0rd-secret';

let plain: FtpServer;
let tls: FtpServer;
let readOnly: FtpServer;
const dropOf = (server: FtpServer, protocol: Drop['protocol']): Drop => ({
  protocol,
  host: server.host,
  port: server.port,
  username: server.username,
  secret: PASSWORD,
  folder: server.folder,
  ...(server.ca ? { ca: server.ca } : {}),
});

beforeAll(async () => {
  [plain, tls, readOnly] = await Promise.all([
    startFtpServer(),
    startFtpServer({ tls: true }),
    startFtpServer({ readOnly: true }),
  ]);
});
afterAll(async () => {
  await Promise.all([plain?.stop(), tls?.stop(), readOnly?.stop()]);
});

describe.each([
  { protocol: 'ftp' as const, server: () => plain },
  { protocol: 'ftps' as const, server: () => tls },
])('$protocol drop (vsftpd)', ({ protocol, server }) => {
  const drop = () => dropOf(server(), protocol);

  it('passes the check and leaves no probe file behind', async () => {
    await checkDrop(drop());
    expect(server().list()).toEqual([]);
  });

  it('delivers a Buffer and a 20 MiB stream under their final names only', async () => {
    const content = Buffer.from('<openimmo/>\n'.repeat(5000));
    expect(await deliverFile(drop(), 'small.zip', content)).toEqual({ bytes: content.length });
    const big = generated(20 * MiB, 2);
    expect(await deliverFile(drop(), 'big.zip', big.open)).toEqual({ bytes: 20 * MiB });
    expect(server().list()).toEqual(['big.zip', 'small.zip']);
    expect(server().readFile('small.zip').equals(content)).toBe(true);
    expect(sha256(server().readFile('big.zip'))).toBe(big.sha256);
    expect(await listDrop(drop())).toEqual(['big.zip', 'small.zip']);
    expect((await fetchFile(drop(), 'small.zip')).equals(content)).toBe(true);
  });

  it('replaces a file of the same name', async () => {
    await deliverFile(drop(), 'small.zip', Buffer.from('second'));
    expect(server().readFile('small.zip').toString()).toBe('second');
    expect(server().list()).not.toContain(partName('small.zip'));
  });

  it('reports a refused login (user bob) as a permanent auth failure, without the password', async () => {
    const error = await dropFailure(checkDrop({ ...drop(), username: 'bob' }), 'auth', true, PASSWORD);
    expect(error.message).toContain('530');
  });

  it('reports a missing folder as folder_missing', async () => {
    await dropFailure(checkDrop({ ...drop(), folder: 'nope' }), 'folder_missing', true, PASSWORD);
  });
});

describe('ftp and ftps failures', () => {
  it('reports a read-only server as a permanent permission failure, leaving nothing', async () => {
    const drop = dropOf(readOnly, 'ftp');
    await dropFailure(checkDrop(drop), 'permission', true, PASSWORD);
    await dropFailure(deliverFile(drop, 'x.zip', Buffer.from('x')), 'permission', true, PASSWORD);
    expect(readOnly.list()).toEqual([]);
  });

  it('refuses the self-signed certificate without its CA as tls, permanent', async () => {
    const drop = dropOf(tls, 'ftps');
    delete drop.ca;
    await dropFailure(checkDrop(drop), 'tls', true, PASSWORD);
  });

  it('refuses a certificate for another host name even with the CA', async () => {
    await dropFailure(checkDrop({ ...dropOf(tls, 'ftps'), host: 'localhost' }), 'tls', true, PASSWORD);
  });

  it('cannot log in without TLS where the server requires it', async () => {
    await dropFailure(checkDrop(dropOf(tls, 'ftp')), 'auth', true, PASSWORD);
  });

  it('reports a server without TLS as tls when ftps is asked for', async () => {
    await dropFailure(checkDrop(dropOf(plain, 'ftps')), 'tls', true, PASSWORD);
  });

  it('times out on a server that accepts but never greets', async () => {
    const silent = createServer(() => undefined).listen(0, '127.0.0.1');
    await new Promise((resolve) => silent.once('listening', resolve));
    const drop = { ...dropOf(plain, 'ftp'), port: (silent.address() as { port: number }).port };
    const started = Date.now();
    await dropFailure(checkDrop(drop, { timeoutMs: 500 }), 'timeout', false, PASSWORD);
    expect(Date.now() - started).toBeLessThan(5_000);
    silent.close();
  });

  it("rejects with the source's own error when the source fails, and removes the temporary file", async () => {
    const broken = new Error('disk read failed');
    const source = () =>
      Readable.from(
        (async function* () {
          yield Buffer.alloc(256 * 1024);
          throw broken;
        })(),
      );
    await expect(deliverFile(dropOf(plain, 'ftp'), 'broken.zip', source)).rejects.toBe(broken);
    const left = plain.list();
    expect(left.filter((name) => name.startsWith('broken'))).toEqual([]);
  });

  it('reports an unresolvable host as dns and a closed port as refused, both transient', async () => {
    await dropFailure(checkDrop({ ...dropOf(plain, 'ftp'), host: 'nonexistent.invalid' }), 'dns', false, PASSWORD);
    await dropFailure(checkDrop({ ...dropOf(plain, 'ftp'), port: await freePort() }), 'refused', false, PASSWORD);
  });

  it('refuses a protocol it does not know instead of falling back to plain FTP', async () => {
    const drop = { ...dropOf(tls, 'ftps'), protocol: 'FTPS' as Drop['protocol'] };
    await expect(checkDrop(drop)).rejects.toThrow(TypeError);
  });
});
