import {
  describeRepositoryContracts,
  describeUserRepositoryContract,
  type OpenRepositories,
} from '@uas/domain/testing';
import { openDatabase } from '../database';
import type { DatabaseOptions } from '../shared/database-handle';
import { createTemporarySqliteFile } from '../testing/sqlite-test-database';

const openSqlite =
  (options: DatabaseOptions): OpenRepositories =>
  async () => {
    const file = createTemporarySqliteFile();
    const database = await openDatabase({ dialect: 'sqlite', url: `sqlite:${file.path}`, path: file.path }, options);
    await database.migrate();
    return {
      repositories: database.repositories,
      close: async () => {
        await database.close();
        file.remove();
      },
    };
  };

describeRepositoryContracts('SQLite', openSqlite({}));
// The server's configuration: list queries on a worker thread's own connection, beside the writer's.
describeUserRepositoryContract('SQLite, lists on a read worker', openSqlite({ readWorkers: 1 }));
