import type { JsonValue } from '../shared/json.ts';

/** Every action the audit trail records, as the API names it. */
export const AUDIT_ACTIONS = [
  'admin.login',
  'admin.login_failed',
  'session.reuse_detected',
  'session.logout',
  'session.revoked',
  'user.created',
  'user.signed_up',
  'user.email_verified',
  'user.email_change_requested',
  'user.email_changed',
  'user.updated',
  'user.deactivated',
  'user.deleted',
  'user.login_throttled',
  /** Someone asked for a recovery link of an existing account (POST /v1/recover); recorded off the request path. */
  'user.recovery_requested',
  /** An admin had a recovery link mailed to the user, or handed to them (`?delivery=link`). */
  'user.recovery_sent',
  /** A recovery link set a new password. */
  'user.recovery_completed',
  /** A verification link was mailed again, on the user's or an admin's request. */
  'user.verification_resent',
  /** A second factor proved it works and counts from now on (its first one also made recovery codes). */
  'factor.activated',
  'factor.removed',
  /** An admin removed every factor of an account (and ended its sessions). */
  'factors.reset',
  'recovery_codes.regenerated',
  'recovery_code.used',
  /** A passkey signed with a counter below the last one seen: a cloned authenticator, perhaps. */
  'passkey.counter_regressed',
  /** 10 wrong second steps in a row: the account's second step is locked for 15 minutes. */
  'mfa.locked',
  /** An owner invited an administrator (by email, with a role). */
  'admin.invited',
  /** An owner withdrew an administrator's pending invitation: its link stopped working. */
  'admin.invitation_withdrawn',
  /** An invited administrator set their password: the account exists from now on. */
  'admin.joined',
  'admin.role_changed',
  'admin.removed',
  /** A user was banned (with a reason, and an end or none); their sessions ended with it. */
  'user.banned',
  'user.unbanned',
  /** An admin began a session as a user (IMPERSONATION=on); what it does is recorded under that admin. */
  'user.impersonated',
  'signing_key.rotated',
  'secret.rotated',
  'users.imported',
  'users.exported',
  'invitation.created',
  'invitation.accepted',
  'invitation.revoked',
  'invitation.resent',
  /** The mail server accepted a message (`mail-messages`, by id: never its recipient or body). */
  'mail.delivered',
  /** A message was given up: refused for good, or still failing after its last attempt. */
  'mail.failed',
  /** An owner added a webhook endpoint (its URL, events and state; never its secret). */
  'webhook.created',
  'webhook.updated',
  'webhook.deleted',
  /** An endpoint's signing secret was replaced; the previous one signs beside it for 24 hours. */
  'webhook.secret_rotated',
  /** An owner had deliveries of an endpoint sent again. */
  'webhook.replayed',
  /** An owner added an identity provider (never its client secret: only that it was set). */
  'identity_provider.created',
  'identity_provider.updated',
  'identity_provider.deleted',
  /** An external identity was linked to a user: by a first sign-in (auto_link) or by the user. */
  'user.identity_linked',
  'user.identity_unlinked',
  /** A user signed in through an identity provider. */
  'user.identity_signed_in',
  /** An owner registered an application that signs its users in through this service (never its secret). */
  'oauth_client.created',
  'oauth_client.updated',
  /** Its grants, codes and tokens went with it. */
  'oauth_client.deleted',
  /** Its secret was replaced; the old one stopped working at once. */
  'oauth_client.secret_rotated',
  /** A user let an application act for them with the scopes named (or a first-party one was let in). */
  'oauth_grant.created',
  /** A grant ended, with its codes and tokens: by the user, an admin, or a replayed code or refresh token. */
  'oauth_grant.revoked',
  /** The token endpoint refused a grant (a code or refresh token that was used, expired or not this client's). */
  'oauth_token.refused',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export function isAuditAction(value: string): value is AuditAction {
  return (AUDIT_ACTIONS as readonly string[]).includes(value);
}

/** Who did it: an admin, a user, or the service itself (the operator CLI, a rule it enforced). */
export interface AuditActor {
  readonly type: 'admin' | 'user' | 'system';
  /** The account's id; null for `system`, and for an admin login that named no admin. */
  readonly id: string | null;
}

/** What it was done to, as the API types its resources (`users`, `admins`, `signing-keys`). */
export interface AuditTarget {
  readonly type: string;
  readonly id: string;
}

/** Each attribute that changed, as it was and as it became. A password is only ever `changed`. */
export type AuditChanges = Readonly<Record<string, { readonly before: JsonValue; readonly after: JsonValue }>>;

/** Where a request came from, as the HTTP layer saw it; all null for the operator CLI. */
export interface RequestContext {
  readonly requestId: string | null;
  readonly clientAddress: string | null;
  readonly userAgent: string | null;
}

/** Who asks for a change and through which request: what an audit event records beside the change. */
export interface Initiator {
  readonly actor: AuditActor;
  readonly request: RequestContext;
}

export const NO_REQUEST: RequestContext = { requestId: null, clientAddress: null, userAgent: null };
export const SYSTEM_ACTOR: AuditActor = { type: 'system', id: null };
/** The service itself, or its operator on the machine (the CLI). */
export const SYSTEM: Initiator = { actor: SYSTEM_ACTOR, request: NO_REQUEST };

/** An event as a use case records it, before the trail gives it its place in the chain. */
export interface AuditRecord {
  readonly id: string;
  readonly time: Date;
  readonly actor: AuditActor;
  readonly action: AuditAction;
  readonly target: AuditTarget | null;
  readonly changes: AuditChanges | null;
  readonly request: RequestContext;
}

/** A stored event: its record, its place in the chain, and the hashes that link it there. */
export interface AuditEvent extends AuditRecord {
  /** 1 for the first event ever appended, one more for each after it. */
  readonly seq: number;
  /** SHA-256 (hex) over the event's canonical content, `previousHash` included. */
  readonly hash: string;
  /** The hash of the event before it; null for the very first event. */
  readonly previousHash: string | null;
}

/** The password is recorded as this, before and after: never a hash. */
export const CHANGED = 'changed';
