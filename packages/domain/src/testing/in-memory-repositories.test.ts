import { describeRepositoryContracts } from './index.ts';
import { inMemoryRepositories } from './in-memory-repositories.ts';

describeRepositoryContracts('in-memory', async () => ({ repositories: inMemoryRepositories(), close: async () => {} }));
