import { describe, expect, it } from './test-api.ts';
import type { SigningKey } from '../tokens/signing-key.ts';
import type { SigningKeyRepository } from '../tokens/signing-key.repository.ts';
import { useFreshRepositories, type OpenRepositories } from './contract-harness.ts';

const day = (n: number) => new Date(Date.UTC(2026, 0, n));
function sampleKey(kid: string, created: Date, activates: Date = created): SigningKey {
  return {
    kid,
    algorithm: 'ES256',
    privateJwk: { kty: 'EC', crv: 'P-256', x: `x-${kid}`, y: `y-${kid}`, d: `d-${kid}` },
    publicJwk: { kty: 'EC', crv: 'P-256', x: `x-${kid}`, y: `y-${kid}` },
    created,
    activates,
    retires: null,
  };
}

/** The behaviour every SigningKeyRepository promises. */
export function describeSigningKeyRepositoryContract(backend: string, open: OpenRepositories): void {
  describe(`SigningKeyRepository contract (${backend})`, () => {
    let keys: SigningKeyRepository;
    useFreshRepositories(open, (repositories) => (keys = repositories.signingKeys));

    it('lists usable keys newest first, unchanged, a key waiting for its activation included', async () => {
      const old = sampleKey('old', day(1));
      const fresh = sampleKey('new', day(2), day(9));
      await keys.rotate(old, day(100));
      await keys.rotate(fresh, day(100));
      expect(await keys.listUsable(day(3))).toEqual([fresh, { ...old, retires: day(100) }]);
    });

    it('rotate() dates every other key once, and listUsable() drops keys past retirement', async () => {
      await keys.rotate(sampleKey('a', day(1)), day(5));
      await keys.rotate(sampleKey('b', day(2)), day(10));
      await keys.rotate(sampleKey('c', day(3)), day(20));
      const usable = await keys.listUsable(day(4));
      expect(usable.map((k) => [k.kid, k.retires])).toEqual([
        ['c', null],
        ['b', day(20)],
        ['a', day(10)],
      ]);
      expect((await keys.listUsable(day(15))).map((k) => k.kid)).toEqual(['c', 'b']);
    });

    it('rotate() deletes a key that would activate after the new one (it never signed), and dates the others', async () => {
      await keys.rotate(sampleKey('current', day(1)), day(50));
      await keys.rotate(sampleKey('scheduled', day(2), day(8)), day(40));
      const immediate = sampleKey('immediate', day(3));
      await keys.rotate(immediate, day(30));
      expect((await keys.listUsable(day(4))).map((k) => [k.kid, k.retires])).toEqual([
        ['immediate', null],
        ['current', day(40)],
      ]);
    });

    it('of concurrent rotations, every key is stored and only the last one stays undated: no key is left published for good', async () => {
      const rotations = Array.from({ length: 24 }, (_, i) => sampleKey(`k${i}`, day(1), day(2)));
      await Promise.all(rotations.map((key, i) => keys.rotate(key, day(10 + i))));
      const usable = await keys.listUsable(day(3));
      expect(usable.map((k) => k.kid).sort()).toEqual(rotations.map((k) => k.kid).sort());
      expect(usable.filter((k) => k.retires === null)).toHaveLength(1);
    });

    it('rotate() keeps a key that activates at the same time or before the new one', async () => {
      await keys.rotate(sampleKey('a', day(1), day(5)), day(50));
      await keys.rotate(sampleKey('b', day(2), day(5)), day(40));
      await keys.rotate(sampleKey('c', day(3), day(6)), day(30));
      expect((await keys.listUsable(day(4))).map((k) => [k.kid, k.retires])).toEqual([
        ['c', null],
        ['b', day(30)],
        ['a', day(40)],
      ]);
    });
  });
}
