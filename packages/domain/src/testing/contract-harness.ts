import { afterEach, beforeEach } from './test-api.ts';
import type { Repositories } from '../repositories.ts';

/** A fresh, empty set of repositories over one backend, and how to let go of it. */
export interface RepositoryHarness {
  repositories: Repositories;
  /**
   * Another instance over the same data, with its own connections and caches, as a second
   * process of the service would have; none means `repositories` itself (the in-memory fake).
   */
  another?: Repositories;
  close(): Promise<void>;
}

/** Opens an empty backend; contract suites call it before each test. */
export type OpenRepositories = () => Promise<RepositoryHarness>;

/** Opens an empty backend before each test (handing its repositories to `use`) and closes it after. */
export function useFreshRepositories(
  open: OpenRepositories,
  use: (repositories: Repositories, another: Repositories) => void,
): void {
  let harness: RepositoryHarness | undefined;
  beforeEach(async () => {
    harness = await open();
    use(harness.repositories, harness.another ?? harness.repositories);
  });
  afterEach(async () => harness?.close());
}
