import {
  describeRepositoryContracts,
  describeUserRepositoryContract,
  type OpenRepositories,
} from '@uas/domain/testing';
import { openDatabase } from '../database';
import type { DatabaseOptions } from '../shared/database-handle';
import { sqlAuditTampering } from '../testing/audit-tampering';
import { createTemporarySqliteFile } from '../testing/sqlite-test-database';

const openSqlite =
  (options: DatabaseOptions): OpenRepositories =>
  async () => {
    const file = createTemporarySqliteFile();
    const location = { dialect: 'sqlite', url: `sqlite:${file.path}`, path: file.path } as const;
    const database = await openDatabase(location, options);
    await database.migrate();
    // A second process's connections and caches over the same file.
    const another = await openDatabase(location, options);
    return {
      repositories: database.repositories,
      another: another.repositories,
      tamper: sqlAuditTampering({ url: `sqlite:${file.path}` }),
      close: async () => {
        await another.close();
        await database.close();
        file.remove();
      },
    };
  };

describeRepositoryContracts('SQLite', openSqlite({}));
// The server's configuration: list queries on a worker thread's own connection, beside the writer's.
describeUserRepositoryContract('SQLite, lists on a read worker', openSqlite({ readWorkers: 1 }));
