import type { AdminRepository } from './admins/admin.repository.ts';
import type { AuditTrail } from './audit/audit-trail.ts';
import type { SessionRepository } from './sessions/session.repository.ts';
import type { PasswordRehashRepository } from './sessions/password-rehash.repository.ts';
import type { LoginAttemptRepository } from './throttling/login-attempt.repository.ts';
import type { SigningKeyRepository } from './tokens/signing-key.repository.ts';
import type { UserRepository } from './users/user.repository.ts';
import type { UserImportRepository } from './transfer/user-import.repository.ts';
import type { ActivityRepository } from './stats/activity.repository.ts';
import type { MailQueue } from './mail/mail-queue.ts';
import type { SecretRepository } from './secrets/secret.repository.ts';
import type { ActionTokenRepository } from './action-tokens/action-token.repository.ts';
import type { RateCounterRepository } from './throttling/rate-counter.repository.ts';
import type { MailRequestQueue } from './mail-requests/mail-request.repository.ts';
import type { AdminInvitationRepository } from './admins/admin-invitation.repository.ts';
import type { InvitationRepository } from './invitations/invitation.repository.ts';
import type { FactorRepository } from './factors/factor.repository.ts';
import type { SignInChallengeRepository } from './sign-in/sign-in-challenge.repository.ts';
import type { WebhookRepository } from './webhooks/webhook.repository.ts';
import type { WebhookDeliveryRepository } from './webhooks/webhook-delivery.repository.ts';

/** Every repository port, as one storage backend provides them. */
export interface Repositories {
  users: UserRepository;
  admins: AdminRepository;
  sessions: SessionRepository;
  attempts: LoginAttemptRepository;
  signingKeys: SigningKeyRepository;
  rehash: PasswordRehashRepository;
  imports: UserImportRepository;
  activity: ActivityRepository;
  audit: AuditTrail;
  secrets: SecretRepository;
  mail: MailQueue;
  tokens: ActionTokenRepository;
  rateCounters: RateCounterRepository;
  mailRequests: MailRequestQueue;
  invitations: InvitationRepository;
  adminInvitations: AdminInvitationRepository;
  factors: FactorRepository;
  signInChallenges: SignInChallengeRepository;
  webhooks: WebhookRepository;
  webhookDeliveries: WebhookDeliveryRepository;
}
