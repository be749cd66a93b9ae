import { describeRepositoryContracts } from './index.ts';
import { inMemoryRepositories } from './in-memory-repositories.ts';

describeRepositoryContracts('in-memory', async () => {
  const repositories = inMemoryRepositories();
  return { repositories, tamper: repositories.audit.tamper, close: async () => {} };
});
