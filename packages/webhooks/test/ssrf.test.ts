import { describe, expect, it } from 'vitest';
import { checkTargetUrl, guardedLookup, isBlockedAddress, type Resolver } from '../src/ssrf.js';

const production = { allowPrivateTargets: false };
const sandbox = { allowPrivateTargets: true };
const fakeDns =
  (table: Record<string, string[]>): Resolver =>
  async (host) => {
    const addresses = table[host];
    if (!addresses) throw Object.assign(new Error('ENOTFOUND'), { code: 'ENOTFOUND' });
    return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };

describe('SSRF guard (production configuration)', () => {
  it.each([
    'https://127.0.0.1/hook',
    'https://10.0.0.1/hook',
    'https://169.254.169.254/latest/meta-data',
    'https://[::1]/hook',
    'https://[::ffff:127.0.0.1]/hook',
    'https://[::ffff:7f00:1]/hook',
    'https://192.168.1.10/hook',
    'https://172.16.5.4/hook',
    'https://100.64.0.1/hook',
    'https://[fd00::1]/hook',
    'https://[fe80::1]/hook',
    'https://0.0.0.0/hook',
    'https://[::]/hook',
  ])('refuses %s', async (url) => {
    expect(await checkTargetUrl(url, production, fakeDns({}))).toMatch(/private, loopback or reserved/);
  });

  it('refuses a host name that resolves to loopback (one bad address is enough)', async () => {
    const dns = fakeDns({ 'evil.example': ['93.184.216.34', '127.0.0.1'], 'local.example': ['::1'] });
    expect(await checkTargetUrl('https://evil.example/hook', production, dns)).toMatch(/resolves to/);
    expect(await checkTargetUrl('https://local.example/hook', production, dns)).toMatch(/resolves to/);
  });

  it.each([
    ['file:///etc/passwd', /https/],
    ['http://hooks.example.com/x', /https/],
    ['ftp://hooks.example.com/x', /https/],
    ['not a url', /valid absolute URL/],
    ['https://user:pw@hooks.example.com/x', /credentials/],
  ])('refuses %s', async (url, message) => {
    expect(await checkTargetUrl(url, production, fakeDns({ 'hooks.example.com': ['93.184.216.34'] }))).toMatch(message);
  });

  it('accepts an https URL resolving to public addresses', async () => {
    expect(
      await checkTargetUrl(
        'https://hooks.example.com/x',
        production,
        fakeDns({ 'hooks.example.com': ['93.184.216.34', '2606:2800:220:1::1'] }),
      ),
    ).toBeNull();
  });

  it('sandbox configuration allows loopback http targets explicitly', async () => {
    expect(await checkTargetUrl('http://127.0.0.1:4000/hook', sandbox)).toBeNull();
    expect(await checkTargetUrl('file:///etc/passwd', sandbox)).toMatch(/http or https/);
  });

  it.each([
    ['IPv4-compatible, hex', 'https://[::7f00:1]/hook'],
    ['IPv4-compatible, dotted', 'https://[::127.0.0.1]/hook'],
    ['IPv4-compatible, private', 'https://[::a00:1]/hook'],
    ['IPv4-translated', 'https://[::ffff:0:7f00:1]/hook'],
    ['6to4 of loopback', 'https://[2002:7f00:1::]/hook'],
    ['6to4 of the metadata address', 'https://[2002:a9fe:a9fe::1]/hook'],
    ['NAT64 well-known prefix', 'https://[64:ff9b::7f00:1]/hook'],
    ['NAT64 well-known prefix, dotted', 'https://[64:ff9b::10.0.0.1]/hook'],
    ['local-use NAT64, /96 form', 'https://[64:ff9b:1::7f00:1]/hook'],
    ['local-use NAT64, RFC 6052 /48 layout', 'https://[64:ff9b:1:7f00:0:100::]/hook'],
  ])('judges an IPv6 address by the IPv4 address inside it: refuses %s (%s)', async (_kind, url) => {
    expect(await checkTargetUrl(url, production, fakeDns({}))).toMatch(/private, loopback or reserved/);
  });

  it.each([
    '::808:808',
    '2002:808:808::1',
    '64:ff9b::808:808',
    '64:ff9b:1::808:808',
    '64:ff9b::8.8.8.8',
    '::ffff:8.8.8.8',
  ])('allows %s: the IPv4 address inside is public', (address) => {
    expect(isBlockedAddress(address)).toBe(false);
  });

  it('refuses a host name whose DNS answer is such an IPv6 address', async () => {
    const dns = fakeDns({ 'sixtofour.example': ['2002:7f00:1::1'], 'nat64.example': ['64:ff9b:1::a9fe:a9fe'] });
    expect(await checkTargetUrl('https://sixtofour.example/hook', production, dns)).toMatch(/resolves to/);
    expect(await checkTargetUrl('https://nat64.example/hook', production, dns)).toMatch(/resolves to/);
  });

  it('classifies addresses', () => {
    expect(isBlockedAddress('8.8.8.8')).toBe(false);
    expect(isBlockedAddress('2606:4700::1111')).toBe(false);
    expect(isBlockedAddress('64:ff9b::10.0.0.1')).toBe(true);
    expect(isBlockedAddress('not-an-ip')).toBe(true);
  });
});

describe('guardedLookup (used for the connection itself)', () => {
  const lookup = (host: string, table: Record<string, string[]>, all = true) =>
    new Promise<{ error: NodeJS.ErrnoException | null; address: unknown }>((resolve) =>
      guardedLookup(production, fakeDns(table))(host, { all }, (error, address) => resolve({ error, address })),
    );

  it('connects only to checked public addresses, dropping blocked ones', async () => {
    const { error, address } = await lookup('mixed.example', { 'mixed.example': ['127.0.0.1', '93.184.216.34'] });
    expect(error).toBeNull();
    expect(address).toEqual([{ address: '93.184.216.34', family: 4 }]);
  });

  it('fails when a rebinding answer holds only blocked addresses', async () => {
    const { error } = await lookup('rebind.example', { 'rebind.example': ['10.0.0.5'] });
    expect(error?.code).toBe('EBLOCKED');
  });

  it('drops IPv6 addresses that carry a blocked IPv4 address', async () => {
    const { error, address } = await lookup('embedded.example', {
      'embedded.example': ['::7f00:1', '2002:7f00:1::', '64:ff9b:1::7f00:1', '2606:4700::1111'],
    });
    expect(error).toBeNull();
    expect(address).toEqual([{ address: '2606:4700::1111', family: 6 }]);
  });
});

describe('SSRF guard: refusals in a sandbox deployment', () => {
  const sandboxDeployment = { allowPrivateTargets: false, sandbox: true };
  const dns = fakeDns({ localhost: ['127.0.0.1'], 'hooks.example.com': ['93.184.216.34'] });

  it.each([
    'http://127.0.0.1:4000/hook',
    'https://127.0.0.1:4443/hook',
    'https://localhost:4443/hook',
    'http://10.0.0.5/',
  ])('the refusal of %s says the operator can set WEBHOOK_ALLOW_PRIVATE_TARGETS=true', async (url) => {
    const problem = await checkTargetUrl(url, sandboxDeployment, dns);
    expect(problem).toMatch(/^(must be an https URL|points to|resolves to)/);
    expect(problem).toContain('WEBHOOK_ALLOW_PRIVATE_TARGETS=true');
  });

  it('production refusals of the same URLs are unchanged and never name the setting', async () => {
    for (const sandboxFlag of [undefined, false]) {
      const policy = { allowPrivateTargets: false, sandbox: sandboxFlag };
      expect(await checkTargetUrl('http://127.0.0.1:4000/hook', policy, dns)).toBe('must be an https URL');
      expect(await checkTargetUrl('https://127.0.0.1:4443/hook', policy, dns)).toBe(
        'points to a private, loopback or reserved address',
      );
      expect(await checkTargetUrl('https://localhost:4443/hook', policy, dns)).toBe(
        'resolves to a private, loopback or reserved address',
      );
    }
  });

  it('other refusals in a sandbox do not name it, and allowed targets stay allowed', async () => {
    expect(await checkTargetUrl('ftp://hooks.example.com/hook', sandboxDeployment, dns)).toBe('must be an https URL');
    expect(await checkTargetUrl('https://nowhere.example/hook', sandboxDeployment, dns)).toBe(
      'host name does not resolve',
    );
    expect(await checkTargetUrl('https://hooks.example.com/hook', sandboxDeployment, dns)).toBeNull();
    expect(
      await checkTargetUrl('http://127.0.0.1:4000/hook', { allowPrivateTargets: true, sandbox: true }, dns),
    ).toBeNull();
  });
});
