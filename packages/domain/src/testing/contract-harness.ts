import { afterEach, beforeEach } from './test-api.ts';
import type { Repositories } from '../repositories.ts';

/** A fresh, empty set of repositories over one backend, and how to let go of it. */
export interface RepositoryHarness {
  repositories: Repositories;
  close(): Promise<void>;
}

/** Opens an empty backend; contract suites call it before each test. */
export type OpenRepositories = () => Promise<RepositoryHarness>;

/** Opens an empty backend before each test (handing its repositories to `use`) and closes it after. */
export function useFreshRepositories(open: OpenRepositories, use: (repositories: Repositories) => void): void {
  let harness: RepositoryHarness | undefined;
  beforeEach(async () => {
    harness = await open();
    use(harness.repositories);
  });
  afterEach(async () => harness?.close());
}
