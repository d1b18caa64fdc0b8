import { describe, expect, it } from 'vitest';
import { portalTarget } from '../src/channels/portal-connection.js';

const strict = { allowPrivateTargets: false };
const answers =
  (...addresses: string[]) =>
  async () =>
    addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));

describe('where a portal host is connected to', () => {
  it('pins the first public address the name resolves to, skipping private ones', async () => {
    expect(await portalTarget('sftp.portal.example', strict, answers('10.0.0.7', '93.184.216.34'))).toEqual({
      address: '93.184.216.34',
    });
  });

  it('refuses a name that resolves only to private, loopback or reserved addresses, and an address literal of them', async () => {
    for (const target of [
      await portalTarget('intern.example', strict, answers('127.0.0.1', '192.168.1.5', '::1')),
      await portalTarget('169.254.169.254', strict),
      await portalTarget('[::1]', strict),
    ])
      expect(target).toEqual({ refused: expect.stringMatching(/private, loopback or reserved/) });
  });

  it('says when a name does not resolve', async () => {
    const failing = async () => Promise.reject(Object.assign(new Error('ENOTFOUND'), { code: 'ENOTFOUND' }));
    expect(await portalTarget('nirgends.invalid', strict, failing)).toEqual({ refused: 'does not resolve (DNS)' });
  });

  it('connects by name where the deployment allows private targets (sandbox, tests)', async () => {
    expect(await portalTarget('127.0.0.1', { allowPrivateTargets: true })).toEqual({});
  });
});
