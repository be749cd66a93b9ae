import { describe, expect, it } from '../testing/test-api.ts';
import { portableSha256Hex, sha256Hex } from './sha256.ts';

/** FIPS 180-4's examples, one and two blocks, the empty message, and UTF-8 beyond one byte a character. */
const VECTORS: [string, string][] = [
  ['', 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855'],
  ['abc', 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad'],
  [
    'abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq',
    '248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1',
  ],
  ['héllo wörld ✓ 🔑', '23ab8e7909aa84cacbafa66d090f5f328ff97c8226b4d8a1e37d4c11906111e8'],
];

describe('SHA-256', () => {
  it.each(VECTORS)('portable: the digest of %j is the standard one', (text, digest) => {
    expect(portableSha256Hex(text)).toBe(digest);
  });

  it("the runtime's own, where there is one, gives the portable one's digest for any text", () => {
    const texts = [...VECTORS.map(([text]) => text), 'x'.repeat(55), 'x'.repeat(56), 'x'.repeat(64), 'é'.repeat(1000)];
    for (let i = 0; i < 200; i += 1) {
      texts.push(
        String.fromCodePoint(...Array.from({ length: i * 3 }, (_, j) => 32 + ((i * 7919 + j * 104729) % 0x2fff))),
      );
    }
    expect(texts.map(sha256Hex)).toEqual(texts.map(portableSha256Hex));
  });

  it("is Node.js's own in Node.js, and the portable one where nothing lends one (a web page)", () => {
    const runtime = (globalThis as { process?: { release?: { name?: string } } }).process;
    if (runtime === undefined) expect(sha256Hex).toBe(portableSha256Hex);
    else if (runtime.release?.name === 'node') expect(sha256Hex).not.toBe(portableSha256Hex);
  });
});
