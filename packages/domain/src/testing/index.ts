export * from './fake-ports.ts';
export * from './recording-logger.ts';
export * from './fake-token-signer.ts';
export * from './in-memory-repositories.ts';
export * from './in-memory-audit-trail.ts';
export * from './contract-harness.ts';
export * from './user.repository.contract.ts';
export * from './admin.repository.contract.ts';
export * from './session.repository.contract.ts';
export * from './sample-session.ts';
export * from './login-attempt.repository.contract.ts';
export * from './signing-key.repository.contract.ts';
export * from './password-rehash.repository.contract.ts';
export * from './user-import.repository.contract.ts';
export * from './activity.repository.contract.ts';
export * from './audit-trail.contract.ts';
export * from './in-memory-mail.ts';
export * from './fake-mail-ports.ts';
export * from './mail-queue.contract.ts';
export * from './secret.repository.contract.ts';
export * from './action-token.repository.contract.ts';
export * from './in-memory-action-tokens.ts';
export * from './in-memory-rate-counters.ts';
export * from './rate-counter.repository.contract.ts';
export * from './in-memory-mail-requests.ts';
export * from './mail-request-queue.contract.ts';
export * from './in-memory-invitations.ts';
export * from './invitation.repository.contract.ts';
export * from './factor.repository.contract.ts';
export * from './sign-in-challenge.repository.contract.ts';
export * from './in-memory-webhooks.ts';
export * from './webhook.repository.contract.ts';
export * from './in-memory-identity-providers.ts';
export * from './in-memory-external-identities.ts';
export * from './in-memory-oauth-attempts.ts';

import type { OpenRepositories } from './contract-harness.ts';
import { describeAdminRepositoryContract } from './admin.repository.contract.ts';
import { describeLoginAttemptRepositoryContract } from './login-attempt.repository.contract.ts';
import { describeSessionRepositoryContract } from './session.repository.contract.ts';
import { describeSigningKeyRepositoryContract } from './signing-key.repository.contract.ts';
import { describeUserRepositoryContract } from './user.repository.contract.ts';
import { describePasswordRehashRepositoryContract } from './password-rehash.repository.contract.ts';
import { describeUserImportRepositoryContract } from './user-import.repository.contract.ts';
import { describeActivityRepositoryContract } from './activity.repository.contract.ts';
import { describeAuditTrailContract } from './audit-trail.contract.ts';
import { describeMailQueueContract } from './mail-queue.contract.ts';
import { describeSecretRepositoryContract } from './secret.repository.contract.ts';
import { describeActionTokenRepositoryContract } from './action-token.repository.contract.ts';
import { describeRateCounterRepositoryContract } from './rate-counter.repository.contract.ts';
import { describeMailRequestQueueContract } from './mail-request-queue.contract.ts';
import { describeInvitationRepositoryContract } from './invitation.repository.contract.ts';
import { describeAdminInvitationRepositoryContract } from './admin-invitation.repository.contract.ts';
import { describeFactorRepositoryContract } from './factor.repository.contract.ts';
import { describeSignInChallengeRepositoryContract } from './sign-in-challenge.repository.contract.ts';
import { describeWebhookRepositoryContract } from './webhook.repository.contract.ts';
import { describeWebhookDeliveryRepositoryContract } from './webhook-delivery.repository.contract.ts';

/** Every repository contract over one backend. */
export function describeRepositoryContracts(backend: string, open: OpenRepositories): void {
  describeUserRepositoryContract(backend, open);
  describeAdminRepositoryContract(backend, open);
  describeSessionRepositoryContract(backend, open);
  describeLoginAttemptRepositoryContract(backend, open);
  describeSigningKeyRepositoryContract(backend, open);
  describePasswordRehashRepositoryContract(backend, open);
  describeUserImportRepositoryContract(backend, open);
  describeActivityRepositoryContract(backend, open);
  describeAuditTrailContract(backend, open);
  describeSecretRepositoryContract(backend, open);
  describeMailQueueContract(backend, open);
  describeActionTokenRepositoryContract(backend, open);
  describeRateCounterRepositoryContract(backend, open);
  describeMailRequestQueueContract(backend, open);
  describeInvitationRepositoryContract(backend, open);
  describeAdminInvitationRepositoryContract(backend, open);
  describeFactorRepositoryContract(backend, open);
  describeSignInChallengeRepositoryContract(backend, open);
  describeWebhookRepositoryContract(backend, open);
  describeWebhookDeliveryRepositoryContract(backend, open);
}
// Suites take describe/it/expect/hooks from './test-api.ts', never from 'vitest': a vitest-style
// case converts by changing its import line (relative imports carry .ts; the build refuses any
// that does not), and then runs in every runtime (runtimes/run.ts).
export { collectedTests, useTestHost, type CollectedTest, type TestHost } from './test-api.ts';
export * from './in-memory-factors.ts';
export * from './in-memory-sign-in-challenges.ts';
export * from './fake-factor-ports.ts';
export * from './factor-fixture.ts';
