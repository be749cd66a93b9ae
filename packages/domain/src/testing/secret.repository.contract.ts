import { describe, expect, it } from './test-api.ts';
import type { Secret } from '../secrets/secret.ts';
import type { SecretRepository } from '../secrets/secret.repository.ts';
import { useFreshRepositories, type OpenRepositories } from './contract-harness.ts';

const day = (n: number) => new Date(Date.UTC(2026, 0, n));
const sampleSecret = (id: string, created: Date): Secret => ({
  id,
  purpose: 'mail-body',
  material: `material-of-${id}`,
  created,
  retired: null,
});

/** The behaviour every SecretRepository promises. */
export function describeSecretRepositoryContract(backend: string, open: OpenRepositories): void {
  describe(`SecretRepository contract (${backend})`, () => {
    let secrets: SecretRepository;
    let other: SecretRepository;
    useFreshRepositories(open, (repositories, another) => {
      secrets = repositories.secrets;
      other = another.secrets;
    });

    it('rotate() makes the new secret current and retires the old one at its creation, which still lists', async () => {
      await secrets.rotate(sampleSecret('a', day(1)));
      await secrets.rotate(sampleSecret('b', day(2)));
      await secrets.rotate(sampleSecret('c', day(3)));
      expect(await other.list('mail-body')).toEqual([
        sampleSecret('c', day(3)),
        { ...sampleSecret('b', day(2)), retired: day(3) },
        { ...sampleSecret('a', day(1)), retired: day(2) },
      ]);
    });

    it('replaceMaterial() changes the material once, only while it is still the one given', async () => {
      await secrets.rotate(sampleSecret('a', day(1)));
      const racing = await Promise.all(
        [secrets, other, secrets, other].map((store, i) => store.replaceMaterial('a', 'material-of-a', `new-${i}`)),
      );
      expect(racing.filter(Boolean)).toHaveLength(1);
      const [stored] = await other.list('mail-body');
      expect(stored?.material).toBe(`new-${racing.indexOf(true)}`);
      expect(await secrets.replaceMaterial('a', 'material-of-a', 'late')).toBe(false);
      expect(await secrets.replaceMaterial('unknown', 'material-of-a', 'late')).toBe(false);
    });

    it('list() is empty before the first rotation', async () => {
      expect(await secrets.list('mail-body')).toEqual([]);
    });

    it('rotations racing on two instances keep every secret and leave exactly one current', async () => {
      const racing = Array.from({ length: 8 }, (_, i) => sampleSecret(`s${i}`, day(1)));
      await Promise.all(racing.map((secret, i) => (i % 2 === 0 ? secrets : other).rotate(secret)));
      const listed = await secrets.list('mail-body');
      expect(listed.map((secret) => secret.id).sort()).toEqual(racing.map((secret) => secret.id).sort());
      expect(listed.filter((secret) => secret.retired === null)).toHaveLength(1);
      expect(listed[0]?.retired).toBeNull();
    });
  });
}
