import { startCutProxy, startFtpServer, startSftpServer, type FtpServer, type SftpServer } from '@platform/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deliverFile, partName, type Drop } from '../src/index.js';
import { dropFailure, generated, MiB, sha256 } from './helpers.js';

let sftp: SftpServer;
let ftp: FtpServer;
beforeAll(async () => {
  [sftp, ftp] = await Promise.all([startSftpServer(), startFtpServer()]);
});
afterAll(async () => {
  await Promise.all([sftp?.stop(), ftp?.stop()]);
});

describe('a connection cut in the middle of an upload', () => {
  it('SFTP: connection_lost (transient), no file under the final name, the next delivery succeeds', async () => {
    const proxy = await startCutProxy(sftp, { cutAfterBytes: 1 * MiB });
    const drop: Drop = {
      protocol: 'sftp',
      host: proxy.host,
      port: proxy.port,
      username: sftp.username,
      secret: sftp.privateKey,
      folder: sftp.folder,
    };
    const source = generated(20 * MiB, 3); // larger than the 8 MiB write queue
    try {
      await dropFailure(deliverFile(drop, 'cut.zip', source.open), 'connection_lost', false, drop.secret);
    } finally {
      await proxy.stop();
    }
    expect(proxy.forwarded()).toBe(1 * MiB);
    expect(source.produced()).toBeLessThan(20 * MiB);
    // Nothing complete-looking: no final name; a temporary one only if the clean-up could not run.
    const left = sftp.list();
    expect(left.filter((name) => name !== partName('cut.zip'))).toEqual([]);

    const direct = { ...drop, host: sftp.host, port: sftp.port };
    expect(await deliverFile(direct, 'cut.zip', source.open)).toEqual({ bytes: 20 * MiB });
    expect(sftp.list()).toEqual(['cut.zip']);
    expect(sha256(sftp.readFile('cut.zip'))).toBe(source.sha256);
  });

  it('FTP: the control connection cut right after STOR is connection_lost, nothing under the final name', async () => {
    // FTP carries the file on a separate data connection (passive ports, not through the proxy).
    // A delivery through a proxy that does not cut counts the control bytes; the real run is cut
    // after the same count minus what follows STOR (SIZE, RNFR, RNTO, QUIT), so the server has
    // the STOR and the upload is running when the control connection goes.
    const dropVia = (proxy: { host: string; port: number }): Drop => ({
      protocol: 'ftp',
      host: proxy.host,
      port: proxy.port,
      username: ftp.username,
      secret: 'ftp-cut-secret',
      folder: ftp.folder,
    });
    const counting = await startCutProxy(ftp, { cutAfterBytes: Number.MAX_SAFE_INTEGER });
    await deliverFile(dropVia(counting), 'pre.zip', Buffer.from('same length name'));
    await counting.stop();
    const afterStor = ['SIZE pre.zip.part', 'RNFR pre.zip.part', 'RNTO pre.zip', 'QUIT'].join('\r\n').length + 2;
    const proxy = await startCutProxy(ftp, { cutAfterBytes: counting.forwarded() - afterStor });
    const source = generated(5 * MiB, 4);
    try {
      await dropFailure(
        deliverFile(dropVia(proxy), 'cut.zip', source.open),
        'connection_lost',
        false,
        'ftp-cut-secret',
      );
    } finally {
      await proxy.stop();
    }
    expect(ftp.list().filter((name) => name !== partName('cut.zip'))).toEqual(['pre.zip']);
    expect(await deliverFile(dropVia(ftp), 'cut.zip', source.open)).toEqual({ bytes: 5 * MiB });
    expect(ftp.list()).toEqual(['cut.zip', 'pre.zip']);
    expect(sha256(ftp.readFile('cut.zip'))).toBe(source.sha256);
  });
});
