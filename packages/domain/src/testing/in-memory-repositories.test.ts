import { describeRepositoryContracts } from './index';
import { inMemoryRepositories } from './in-memory-repositories';

describeRepositoryContracts('in-memory', async () => ({ repositories: inMemoryRepositories(), close: async () => {} }));
