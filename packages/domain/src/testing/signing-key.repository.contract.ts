import { describe, expect, it } from './test-api.ts';
import type { SigningKey } from '../tokens/signing-key.ts';
import type { SigningKeyRepository } from '../tokens/signing-key.repository.ts';
import { useFreshRepositories, type OpenRepositories } from './contract-harness.ts';

const day = (n: number) => new Date(Date.UTC(2026, 0, n));
function sampleKey(kid: string, created: Date, retires: Date | null = null): SigningKey {
  return {
    kid,
    algorithm: 'ES256',
    privateJwk: { kty: 'EC', crv: 'P-256', x: `x-${kid}`, y: `y-${kid}`, d: `d-${kid}` },
    publicJwk: { kty: 'EC', crv: 'P-256', x: `x-${kid}`, y: `y-${kid}` },
    created,
    retires,
  };
}

/** The behaviour every SigningKeyRepository promises. */
export function describeSigningKeyRepositoryContract(backend: string, open: OpenRepositories): void {
  describe(`SigningKeyRepository contract (${backend})`, () => {
    let keys: SigningKeyRepository;
    useFreshRepositories(open, (repositories) => (keys = repositories.signingKeys));

    it('lists usable keys newest first, unchanged', async () => {
      const old = sampleKey('old', day(1));
      const fresh = sampleKey('new', day(2));
      await keys.insert(old);
      await keys.insert(fresh);
      expect(await keys.listUsable(day(3))).toEqual([fresh, old]);
    });

    it('retireOthers() dates every other key once, and listUsable() drops keys past retirement', async () => {
      await keys.insert(sampleKey('a', day(1)));
      await keys.insert(sampleKey('b', day(2)));
      await keys.retireOthers('b', day(10));
      await keys.insert(sampleKey('c', day(3)));
      await keys.retireOthers('c', day(20));
      const usable = await keys.listUsable(day(4));
      expect(usable.map((k) => [k.kid, k.retires])).toEqual([
        ['c', null],
        ['b', day(20)],
        ['a', day(10)],
      ]);
      expect((await keys.listUsable(day(15))).map((k) => k.kid)).toEqual(['c', 'b']);
    });
  });
}
