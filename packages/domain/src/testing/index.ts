export * from './fake-ports';
export * from './fake-token-signer';
export * from './in-memory-repositories';
export * from './use-cases';
export * from './contract-harness';
export * from './user.repository.contract';
export * from './admin.repository.contract';
export * from './session.repository.contract';
export * from './login-attempt.repository.contract';
export * from './signing-key.repository.contract';
export * from './password-rehash.repository.contract';
export * from './user-import.repository.contract';

import type { OpenRepositories } from './contract-harness';
import { describeAdminRepositoryContract } from './admin.repository.contract';
import { describeLoginAttemptRepositoryContract } from './login-attempt.repository.contract';
import { describeSessionRepositoryContract } from './session.repository.contract';
import { describeSigningKeyRepositoryContract } from './signing-key.repository.contract';
import { describeUserRepositoryContract } from './user.repository.contract';
import { describePasswordRehashRepositoryContract } from './password-rehash.repository.contract';
import { describeUserImportRepositoryContract } from './user-import.repository.contract';

/** Every repository contract over one backend. */
export function describeRepositoryContracts(backend: string, open: OpenRepositories): void {
  describeUserRepositoryContract(backend, open);
  describeAdminRepositoryContract(backend, open);
  describeSessionRepositoryContract(backend, open);
  describeLoginAttemptRepositoryContract(backend, open);
  describeSigningKeyRepositoryContract(backend, open);
  describePasswordRehashRepositoryContract(backend, open);
  describeUserImportRepositoryContract(backend, open);
}
// Suites take describe/it/expect/hooks from './test-api.ts', never from 'vitest': a vitest-style
// case converts by changing its import line (relative imports carry .ts; the build refuses any
// that does not), and then runs in every runtime (runtimes/run.ts).
export { collectedTests, useTestHost, type CollectedTest, type TestHost } from './test-api.ts';
