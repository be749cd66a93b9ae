import { afterEach, beforeEach } from './test-api.ts';
import type { AuditEvent, AuditRecord } from '../audit/audit-event.ts';
import type { Repositories } from '../repositories.ts';

/**
 * Changes to stored audit events made behind the trail's back, as someone with write access to
 * the database could: what verification must detect.
 */
export interface AuditTampering {
  setClientAddress(seq: number, address: string): Promise<void>;
  remove(seq: number): Promise<void>;
  /** Swaps the places of two events in the chain. */
  swap(a: number, b: number): Promise<void>;
  /** Puts `event` at its place in the chain, moving the event there and every later one a place on. */
  insert(event: AuditEvent): Promise<void>;
}

/** A fresh, empty set of repositories over one backend, and how to let go of it. */
export interface RepositoryHarness {
  repositories: Repositories;
  /**
   * Another instance over the same data, with its own connections and caches, as a second
   * process of the service would have; none means `repositories` itself (the in-memory fake).
   */
  another?: Repositories;
  tamper: AuditTampering;
  /**
   * Begins a transaction on a connection of its own, appends `record` in it as a write port does,
   * and leaves it open until the answered function commits it: a write caught before its commit.
   * Only where writes run side by side (PostgreSQL); SQLite has one writer at a time by design.
   */
  holdAuditedWrite?(record: AuditRecord): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

/** Opens an empty backend; contract suites call it before each test. */
export type OpenRepositories = () => Promise<RepositoryHarness>;

/** Opens an empty backend before each test (handing its repositories to `use`) and closes it after. */
export function useFreshRepositories(
  open: OpenRepositories,
  use: (repositories: Repositories, another: Repositories, harness: RepositoryHarness) => void,
): void {
  let harness: RepositoryHarness | undefined;
  beforeEach(async () => {
    harness = await open();
    use(harness.repositories, harness.another ?? harness.repositories, harness);
  });
  afterEach(async () => harness?.close());
}
