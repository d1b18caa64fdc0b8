// The signature checks of docs/webhooks.md in PHP, Python and shell+openssl, run as the files of
// docs/snippets/ with their own interpreters: PHP and Python as HTTP receivers (php -S, python3)
// that real HTTP deliveries reach, the shell script on a captured body. Each delivery is signed by
// this package's signer with a secret of the form it issues.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '@platform/testkit';
import { generatedSection } from '../../../scripts/docs/sections.js';
import { generateSigningSecret } from '../src/secret-box.js';
import { signatureHeader } from '../src/signature.js';
import {
  interpreter,
  RECEIVER_LANGUAGES,
  receiverInterpreter,
  SNIPPETS,
  startSnippetReceiver,
  type SnippetLanguage,
} from './snippet-receivers.js';

const secret = generateSigningSecret();
const oldSecret = generateSigningSecret();
const now = () => Math.floor(Date.now() / 1000);

interface Delivery {
  body: string;
  header: string;
}

const envelope = (data: object) =>
  JSON.stringify({ id: 'evt_01JD3Q7M2S', type: 'property.updated', created_at: new Date().toISOString(), data });
const body = envelope({ property_id: 'prop_01JD3Q7M2V', changed_fields: ['rooms'] });
const german = envelope({ property_id: 'prop_01JD3Q7M2W', note: 'Müller & Söhne, 3½ Zimmer in Köln' });

/** Genuine deliveries: each must be accepted. */
const genuine: Record<string, () => Delivery> = {
  'a delivery': () => ({ body, header: signatureHeader([secret], now(), body) }),
  'a body with non-ASCII characters (checked as bytes)': () => ({
    body: german,
    header: signatureHeader([secret], now(), german),
  }),
  'a delivery during a rotation (old and new secret both sign)': () => ({
    body,
    header: signatureHeader([oldSecret, secret], now(), body),
  }),
};

/** Deliveries to refuse. */
const forged: Record<string, () => Delivery> = {
  'a changed body': () => ({ body: body.replace('rooms', 'price'), header: signatureHeader([secret], now(), body) }),
  'a parsed and re-serialised body': () => ({
    body: JSON.stringify(JSON.parse(body), null, 2),
    header: signatureHeader([secret], now(), body),
  }),
  'a signature by another secret': () => ({ body, header: signatureHeader([oldSecret], now(), body) }),
  'a timestamp 301 s old (a replay)': () => ({ body, header: signatureHeader([secret], now() - 301, body) }),
  'a timestamp 301 s ahead': () => ({ body, header: signatureHeader([secret], now() + 301, body) }),
  'no signature header': () => ({ body, header: '' }),
};

/** Runs `accepts` for every case; each snippet must give the same verdicts. */
function verdicts(accepts: (delivery: Delivery) => Promise<boolean>) {
  for (const [name, delivery] of Object.entries(genuine))
    it(`accepts ${name}`, async () => expect(await accepts(delivery())).toBe(true));
  for (const [name, delivery] of Object.entries(forged))
    it(`refuses ${name}`, async () => expect(await accepts(delivery())).toBe(false));
}

/** A snippet's receiver on a free port; deliveries are POSTed to it as the services send them. */
function receiverSnippet(language: SnippetLanguage) {
  let receiver: Awaited<ReturnType<typeof startSnippetReceiver>> | undefined;
  beforeAll(async () => {
    receiver = await startSnippetReceiver(language, await freePort(), [secret]);
  }, 20_000);
  afterAll(() => receiver?.stop());
  verdicts(async ({ body, header }) => {
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      'user-agent': 'platform-webhooks/1.0',
    };
    if (header) headers['x-service-signature'] = header;
    const response = await fetch(receiver!.url, { method: 'POST', body, headers });
    const answer = await response.text();
    if (response.status !== 202 && !(response.status === 400 && answer === 'invalid signature'))
      throw new Error(`unexpected answer ${response.status}: ${answer}`);
    return response.status === 202;
  });
}

const openssl = interpreter('openssl', 'Debian: openssl');

for (const language of RECEIVER_LANGUAGES) {
  const { available, note } = receiverInterpreter(language);
  describe.skipIf(!available)(`the ${language} receiver of docs/webhooks.md${note}`, () => receiverSnippet(language));
}

describe.skipIf(!openssl.available)(`the shell + openssl check of docs/webhooks.md${openssl.note}`, () => {
  const folder = mkdtempSync(join(tmpdir(), 'verify-sh-'));
  afterAll(() => rmSync(folder, { recursive: true, force: true }));
  verdicts(({ body: raw, header }) => {
    const file = join(folder, 'body.json');
    writeFileSync(file, raw);
    return new Promise((resolve) =>
      execFile('bash', [join(SNIPPETS, 'verify-webhook.sh'), file, header, secret], (error) => resolve(!error)),
    );
  });
});

describe('docs/webhooks.md', () => {
  const sections = {
    'verify-php': ['php', 'verify-webhook.php'],
    'verify-python': ['python', 'verify-webhook.py'],
    'verify-openssl': ['sh', 'verify-webhook.sh'],
  };
  for (const [section, [language, file]] of Object.entries(sections))
    it(`shows docs/snippets/${file} as it is (UPDATE_DOCS=1 rewrites it)`, () => {
      const content = `\`\`\`${language}\n${readFileSync(join(SNIPPETS, file), 'utf8')}\`\`\``;
      const { committed, expected } = generatedSection('webhooks.md', section, content);
      expect(committed).toBe(expected);
    });
});
