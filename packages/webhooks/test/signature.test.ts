import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { computeSignature, signatureHeader, verifySignature } from '../src/signature.js';

const secret = 'whsec_test_secret';
const body =
  '{"id":"evt_1","type":"property.created","created_at":"2026-11-22T10:00:00.000Z","data":{"property_id":"prop_1"}}';
const t = 1_795_000_000;
const at = (seconds: number) => () => seconds * 1000;

describe('signatures', () => {
  it('are lowercase hex HMAC-SHA256 of "<t>.<raw body>"', () => {
    const independent = createHmac('sha256', secret).update(`${t}.${body}`).digest('hex');
    expect(computeSignature(secret, t, body)).toBe(independent);
    expect(signatureHeader([secret], t, body)).toBe(`t=${t},v1=${independent}`);
  });

  it('round-trip: a signed body verifies within the tolerance', () => {
    const header = signatureHeader([secret], t, body);
    expect(verifySignature(body, header, secret, { now: at(t) })).toEqual({ valid: true, timestamp: t });
    expect(verifySignature(Buffer.from(body), header, secret, { now: at(t + 300) }).valid).toBe(true);
    expect(verifySignature(body, header, secret, { now: at(t - 300) }).valid).toBe(true);
  });

  it('rejects a tampered body, a wrong secret and a timestamp 301 s old', () => {
    const header = signatureHeader([secret], t, body);
    expect(verifySignature(body.replace('prop_1', 'prop_2'), header, secret, { now: at(t) })).toMatchObject({
      valid: false,
      reason: 'signature_mismatch',
    });
    expect(verifySignature(JSON.stringify(JSON.parse(body), null, 1), header, secret, { now: at(t) }).valid).toBe(
      false,
    );
    expect(verifySignature(body, header, 'another secret', { now: at(t) })).toMatchObject({
      valid: false,
      reason: 'signature_mismatch',
    });
    expect(verifySignature(body, header, secret, { now: at(t + 301) })).toMatchObject({
      valid: false,
      reason: 'timestamp_outside_tolerance',
    });
  });

  it('rejects a header with a forged timestamp (the signature covers t)', () => {
    const header = signatureHeader([secret], t, body).replace(`t=${t}`, `t=${t + 1000}`);
    expect(verifySignature(body, header, secret, { now: at(t + 1000) }).valid).toBe(false);
  });

  it('accepts either secret during a rotation (two v1 values) and either receiver secret', () => {
    const header = signatureHeader(['old', 'new'], t, body);
    expect(header.match(/v1=/g)).toHaveLength(2);
    expect(verifySignature(body, header, 'old', { now: at(t) }).valid).toBe(true);
    expect(verifySignature(body, header, 'new', { now: at(t) }).valid).toBe(true);
    expect(verifySignature(body, signatureHeader(['new'], t, body), ['old', 'new'], { now: at(t) }).valid).toBe(true);
  });

  it.each([undefined, '', 'v1=abc', `t=${t}`, 't=x,v1=' + 'a'.repeat(64)])(
    'refuses a malformed header %j',
    (header) => {
      expect(verifySignature(body, header, secret, { now: at(t) })).toMatchObject({
        valid: false,
        reason: 'malformed_header',
      });
    },
  );
});
