import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatSignedCode, fromBase64Url, isSignedCode, parseSignedCode, signedPayload, toBase64Url, type SignedTicket } from '../../../engine/domain/signed-code';

/** The signed code's text format (issue #26, contract §15), pure: round trips, and what is not one. */

const id = fc.string({ minLength: 1, maxLength: 40 });
const ticket: fc.Arbitrary<SignedTicket> = fc.record({
  code: id,
  occurrenceId: id,
  areaId: id,
  seat: fc.option(fc.string({ maxLength: 40 }), { nil: null }),
  orderId: id,
});
const signature = fc.uint8Array({ minLength: 64, maxLength: 64 });
const keyId = fc.stringMatching(/^[A-Za-z0-9_-]{12}$/);

describe('signed codes', () => {
  it('base64url round trips any bytes, without padding, and reads only the canonical spelling', () => {
    fc.assert(fc.property(fc.uint8Array({ maxLength: 200 }), (bytes) => {
      const text = toBase64Url(bytes);
      expect(text).toMatch(/^[A-Za-z0-9_-]*$/);
      expect(text).toBe(Buffer.from(bytes).toString('base64url'));
      expect(fromBase64Url(text)).toEqual(bytes);
    }));
    expect(fromBase64Url('QQ==')).toBeUndefined();
    expect(fromBase64Url('QR')).toBeUndefined(); // non-zero unused bits: another spelling of "A"
    expect(fromBase64Url('Q')).toBeUndefined();
    expect(fromBase64Url('a+b/')).toBeUndefined();
  });

  it('format then parse gives back the ticket, the payload bytes, the signature and the key id', () => {
    fc.assert(fc.property(ticket, signature, keyId, (t, sig, key) => {
      const payload = signedPayload(t);
      const text = formatSignedCode(payload, sig, key);
      expect(isSignedCode(text)).toBe(true);
      fc.pre(text.length <= 600);
      const parsed = parseSignedCode(text);
      expect(parsed?.payload).toEqual(t);
      expect(parsed?.payloadBytes).toEqual(payload);
      expect(parsed?.signature).toEqual(sig);
      expect(parsed?.keyId).toBe(key);
      expect(JSON.parse(new TextDecoder().decode(payload))).toEqual([t.code, t.occurrenceId, t.areaId, t.seat, t.orderId]);
    }));
  });

  it('any one character changed either fails to parse or parses to something else', () => {
    fc.assert(fc.property(ticket, signature, keyId, fc.nat(), fc.constantFrom(...'AZaz09-_.=+/ '), (t, sig, key, at, char) => {
      const text = formatSignedCode(signedPayload(t), sig, key);
      const i = at % text.length;
      fc.pre(text[i] !== char);
      const changed = text.slice(0, i) + char + text.slice(i + 1);
      const parsed = parseSignedCode(changed);
      if (parsed === undefined) return;
      const same = JSON.stringify(parsed.payload) === JSON.stringify(t) && Buffer.from(parsed.signature).equals(Buffer.from(sig)) && parsed.keyId === key;
      expect(same).toBe(false);
    }));
  });

  it('refuses what is not a signed code', () => {
    const payload = toBase64Url(new TextEncoder().encode('["C","o","a",null,"ord"]'));
    const sig = toBase64Url(new Uint8Array(64));
    const key = 'abcdefghijkl';
    expect(parseSignedCode(`K1.${payload}.${sig}.${key}`)?.payload).toEqual({ code: 'C', occurrenceId: 'o', areaId: 'a', seat: null, orderId: 'ord' });
    const bad = [
      `K2.${payload}.${sig}.${key}`,
      `K1.${payload}.${sig}`,
      `K1.${payload}.${sig}.${key}.x`,
      `K1.${payload}.${toBase64Url(new Uint8Array(63))}.${key}`,
      `K1.${payload}.${sig}.short`,
      `K1.${toBase64Url(new TextEncoder().encode('["C","o","a",null]'))}.${sig}.${key}`,
      `K1.${toBase64Url(new TextEncoder().encode('["C","o","a",1,"ord"]'))}.${sig}.${key}`,
      `K1.${toBase64Url(new TextEncoder().encode('["","o","a",null,"ord"]'))}.${sig}.${key}`,
      `K1.${toBase64Url(new TextEncoder().encode('{"code":"C"}'))}.${sig}.${key}`,
      `K1.${toBase64Url(new Uint8Array([0xff, 0xfe]))}.${sig}.${key}`,
      `K1.${payload}x.${sig}.${key}`,
      `K1.${payload}.${sig}.${key}${'A'.repeat(600)}`,
      'ABCDEFGHJKMNPQRSTVWX',
      '',
    ];
    for (const text of bad) expect(parseSignedCode(text), text).toBeUndefined();
  });
});
