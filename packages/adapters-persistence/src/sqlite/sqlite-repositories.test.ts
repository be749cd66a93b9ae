import { describeRepositoryContracts } from '@uas/domain/testing';
import { openDatabase } from '../database';
import { createTemporarySqliteFile } from '../testing/sqlite-test-database';

describeRepositoryContracts('SQLite', async () => {
  const file = createTemporarySqliteFile();
  const database = await openDatabase({ dialect: 'sqlite', url: `sqlite:${file.path}`, path: file.path });
  await database.migrate();
  return {
    repositories: database.repositories,
    close: async () => {
      await database.close();
      file.remove();
    },
  };
});
