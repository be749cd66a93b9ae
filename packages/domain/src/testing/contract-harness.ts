import type { Repositories } from '../repositories';

/** A fresh, empty set of repositories over one backend, and how to let go of it. */
export interface RepositoryHarness {
  repositories: Repositories;
  close(): Promise<void>;
}

/** Opens an empty backend for each test; contract suites call it in `beforeEach`. */
export type OpenRepositories = () => Promise<RepositoryHarness>;
