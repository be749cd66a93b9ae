import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { BACKENDS } from '../support/test-application';
import { withApplicationDatabase } from '../support/token-forgery';
import { userScenario } from '../support/user-client';

const vectors: { format: string; password: string; hash: string }[] = JSON.parse(
  readFileSync(new URL('../fixtures/password-hash-vectors.json', import.meta.url), 'utf8'),
);

describe.each(BACKENDS)('logging in with a password hash made elsewhere, on %s', (backend) => {
  const scenario = userScenario(backend);

  const storedHash = (id: string) =>
    withApplicationDatabase(
      scenario.t,
      async (database) => (await database.repositories.users.findById(id))?.passwordHash,
    );

  it.each(vectors)(
    '$format: the original password logs in, and the hash becomes bcrypt at the configured cost',
    async ({ password, hash }) => {
      const { t, api } = scenario;
      const user = await api.createUser();
      await withApplicationDatabase(t, async (database) => {
        await database.repositories.users.update(user.id, (current) => ({ user: { ...current, passwordHash: hash } }));
      });

      expect((await api.login(user.email, `${password}!`)).status).toBe(401);
      expect(await storedHash(user.id)).toBe(hash);

      expect((await api.login(user.email, password)).status).toBe(200);
      expect(await storedHash(user.id)).toMatch(/^\$2b\$04\$/);
      expect((await api.login(user.email, password)).status).toBe(200);
      expect((await api.login(user.email, `${password}!`)).status).toBe(401);
    },
  );
});
