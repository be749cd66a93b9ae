import { afterEach, describe, expect, it } from 'vitest';
import { EmailTakenError } from '@uas/domain';
import { sampleUser } from '@uas/domain/testing';
import { openDatabase } from './database';
import type { Database, DatabaseOptions } from './shared/database-handle';
import type { DatabaseLocation } from './database-url';

/** An empty place for a database of one dialect, and how to remove it afterwards. */
export interface ProvisionedDatabase {
  location: DatabaseLocation;
  options?: DatabaseOptions;
  remove(): Promise<void>;
}

/** What every dialect's Database promises beyond the repository ports. */
export function describeDatabaseContract(backend: string, provision: () => Promise<ProvisionedDatabase>): void {
  describe(`Database contract (${backend})`, () => {
    const cleanups: (() => Promise<void>)[] = [];
    afterEach(async () => {
      for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
    });

    async function provisioned() {
      const place = await provision();
      cleanups.push(() => place.remove());
      return place;
    }
    async function opened({ location, options }: ProvisionedDatabase): Promise<Database> {
      const database = await openDatabase(location, options);
      cleanups.push(() => database.close());
      return database;
    }

    it('migrate() a second time applies nothing and loses nothing', async () => {
      const database = await opened(await provisioned());
      await database.migrate();
      const user = sampleUser();
      await database.repositories.users.insert(user);
      await database.migrate();
      expect(await database.repositories.users.findById(user.id)).toEqual(user);
    });

    it('migrationStatus() lists every migration as pending before migrate(), none after, and changes nothing', async () => {
      const database = await opened(await provisioned());
      const before = await database.migrationStatus();
      expect(before.applied).toBe(0);
      expect(before.pending[0]).toBe('0000_init');
      expect(await database.migrationStatus()).toEqual(before);
      await database.migrate();
      expect(await database.migrationStatus()).toEqual({ applied: before.pending.length, pending: [] });
    });

    it('withStartupLock() lets two instances on one database take turns', async () => {
      const place = await provisioned();
      const [one, two] = [await opened(place), await opened(place)];
      const events: string[] = [];
      const hold = (name: string) => async () => {
        events.push(`${name} starts`);
        await new Promise((resolve) => setTimeout(resolve, 150));
        events.push(`${name} ends`);
        return name;
      };
      expect(await Promise.all([one.withStartupLock(hold('one')), two.withStartupLock(hold('two'))])).toEqual([
        'one',
        'two',
      ]);
      const [first, second] = events[0] === 'one starts' ? ['one', 'two'] : ['two', 'one'];
      expect(events).toEqual([`${first} starts`, `${first} ends`, `${second} starts`, `${second} ends`]);
    });

    it('two instances keep the user total and search exact through rounds of concurrent writes and reads', async () => {
      const place = await provisioned();
      // The second instance lists on a read worker, as the server does on SQLite.
      const [one, two] = [
        await opened(place),
        await opened({ ...place, options: { ...place.options, readWorkers: 1 } }),
      ];
      await one.migrate();
      const alive = new Set<string>();
      const lost: string[] = [];
      for (let round = 0; round < 4; round++) {
        const fresh = Array.from({ length: 24 }, (_, n) =>
          sampleUser({ email: `r${round}n${n}@two-instances.example` }),
        );
        const doomed = [...alive].slice(0, 8);
        const results = await Promise.allSettled([
          ...fresh.slice(0, 12).map((user) => one.repositories.users.insert(user)),
          two.repositories.users.insertMany(fresh.slice(12)),
          ...doomed.map((id, n) => (n % 2 ? one : two).repositories.users.delete(id, new Date())),
          ...[one, two].map((instance) =>
            instance.repositories.users.list({ page: 1, size: 5, emailContains: 'two-instances' }),
          ),
        ]);
        lost.push(
          ...results.filter((r) => r.status === 'rejected').map((r) => String((r as PromiseRejectedResult).reason)),
        );
        for (const user of fresh) alive.add(user.id);
        for (const id of doomed) alive.delete(id);
        for (const [name, instance] of [
          ['one', one],
          ['two', two],
        ] as const) {
          const everyone = await instance.repositories.users.list({ page: 1, size: 1 });
          const found = await instance.repositories.users.list({ page: 1, size: 1, emailContains: '@two-instances.' });
          if (everyone.total !== alive.size || found.total !== alive.size) {
            lost.push(
              `round ${round}, instance ${name}: total ${everyone.total}, search ${found.total}, expected ${alive.size}`,
            );
          }
        }
      }
      expect(lost).toEqual([]);
    });

    it('withStartupLock() passes on what fn throws and lets the next caller in', async () => {
      const database = await opened(await provisioned());
      await expect(database.withStartupLock(async () => Promise.reject(new Error('bootstrap failed')))).rejects.toThrow(
        'bootstrap failed',
      );
      expect(await database.withStartupLock(async () => 'next')).toBe('next');
    });

    it('ping() answers while open; close() may be called twice; afterwards operations fail', async () => {
      const database = await opened(await provisioned());
      await database.migrate();
      await expect(database.ping()).resolves.toBeUndefined();
      await database.close();
      await database.close();
      // PostgreSQL's closed pool is an unavailable database (a 503, its cause for the log); SQLite's a fault.
      const failure = await database.repositories.users.findById(sampleUser().id).catch((error: Error) => error);
      expect(failure).toBeInstanceOf(Error);
      const { message, cause } = failure as Error;
      expect(`${message} ${String(cause)}`).toMatch(/users\.findById/);
    });

    it('a failing statement rejects with an error naming neither SQL nor values', async () => {
      const database = await opened(await provisioned());
      await database.migrate();
      const user = sampleUser();
      await database.repositories.users.insert(user);
      // The same id with another email violates the primary key, not the email's uniqueness.
      const clash = { ...user, email: 'other@example.com', passwordHash: 'secret-hash-value' };
      const error: unknown = await database.repositories.users.insert(clash).catch((failure: unknown) => failure);
      expect(error).toBeInstanceOf(Error);
      expect(error).not.toBeInstanceOf(EmailTakenError);
      const text = `${(error as Error).message} ${JSON.stringify(error)}`;
      for (const leak of ['insert into', 'values', 'secret-hash-value', 'other@example.com', user.id])
        expect(text).not.toContain(leak);
      expect((error as Error).message).toMatch(/users\.insert failed/);
    });
  });
}
