import { describe, expect, it } from 'vitest';
import { normalizeRecoveryCode, SECOND_FACTOR_RULES } from '@uas/domain';
import { generateSync } from 'otplib';
import { OtplibCodes } from './otp-codes';

/** RFC 6238 appendix B's SHA-1 seed, "12345678901234567890", in base32. */
const RFC_SECRET = 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ';
const codes = new OtplibCodes();
const at = (seconds: number) => new Date(seconds * 1000);

describe('OtplibCodes', () => {
  it('accepts the codes of RFC 6238 appendix B (their last 6 digits) and tells their step', () => {
    expect(codes.stepOf(RFC_SECRET, '287082', at(59))).toBe(1);
    expect(codes.stepOf(RFC_SECRET, '081804', at(1111111109))).toBe(Math.floor(1111111109 / 30));
    expect(codes.stepOf(RFC_SECRET, '005924', at(1234567890))).toBe(Math.floor(1234567890 / 30));
  });

  it('accepts a code one step either side of now, tells which, and refuses two steps away', () => {
    const secret = codes.newSecret();
    const now = 1_800_000_015;
    const step = Math.floor(now / 30);
    const codeOf = (n: number) => generateSync({ secret, epoch: n * 30 });
    expect(codes.stepOf(secret, codeOf(step), at(now))).toBe(step);
    expect(codes.stepOf(secret, codeOf(step - 1), at(now))).toBe(step - 1);
    expect(codes.stepOf(secret, codeOf(step + 1), at(now))).toBe(step + 1);
    expect(codes.stepOf(secret, codeOf(step - 2), at(now))).toBeNull();
    expect(codes.stepOf(secret, codeOf(step + 2), at(now))).toBeNull();
  });

  it('refuses anything that is not six digits, without throwing', () => {
    const secret = codes.newSecret();
    for (const code of ['', '12345', '1234567', 'abcdef', ' 123456', '12345x', '１２３４５６']) {
      expect(codes.stepOf(secret, code, new Date())).toBeNull();
    }
  });

  it('makes 160-bit base32 secrets, each new', () => {
    const secrets = new Set(Array.from({ length: 100 }, () => codes.newSecret()));
    expect(secrets.size).toBe(100);
    for (const secret of secrets) expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  });

  it('writes the otpauth URI authenticator apps read, and its QR code as an SVG document', async () => {
    const uri = codes.uri(RFC_SECRET, 'ada@example.com', 'Example & Co');
    const url = new URL(uri);
    expect(url.protocol).toBe('otpauth:');
    expect(url.host).toBe('totp');
    expect(decodeURIComponent(url.pathname)).toBe('/Example & Co:ada@example.com');
    expect(url.searchParams.get('secret')).toBe(RFC_SECRET);
    expect(url.searchParams.get('issuer')).toBe('Example & Co');
    expect(url.searchParams.get('digits') ?? '6').toBe('6');
    expect(url.searchParams.get('period') ?? '30').toBe('30');
    expect((url.searchParams.get('algorithm') ?? 'SHA1').toUpperCase()).toBe('SHA1');
    const svg = await codes.qrSvg(uri);
    expect(svg).toMatch(/^<svg [^>]*xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    expect(svg).not.toMatch(/<script|on\w+=/i);
  });

  it('makes recovery codes of 60 random bits, grouped for reading, each new', () => {
    const made = Array.from({ length: 1000 }, () => codes.newRecoveryCode());
    expect(new Set(made.map(normalizeRecoveryCode)).size).toBe(1000);
    for (const code of made) {
      expect(code).toMatch(/^[a-z2-7]{4}-[a-z2-7]{4}-[a-z2-7]{4}$/);
      expect(normalizeRecoveryCode(code)).toHaveLength(SECOND_FACTOR_RULES.recoveryCodes.length);
    }
  });
});
