import { addSeconds } from '../shared/clock.ts';
import type { SealedText } from '../secrets/secret.ts';
import type { SecretBox } from '../secrets/secret-box.ts';

/**
 * Every kind of message the service sends, each with its own templates and the values they may
 * use. `link` is a page under `/account/` carrying a single-use token (see accountLink).
 */
export const MAIL_KIND_VALUES = {
  test: ['recipient'],
  /** To a new account's address (sign-up), or again on request: confirm it. */
  verification: ['email', 'link'],
  /** To the owner of an address someone tried to sign up with again: no second account was made. */
  signup_existing: ['email'],
  /** Forgot the password: set a new one through the link. */
  recovery: ['email', 'link'],
  /** To the new address of a change the user asked for: confirm it. */
  email_change: ['email', 'new_email', 'link'],
  /** To the old address when a change is asked for: a security notice. */
  email_change_notice: ['email', 'new_email'],
  /** A security notice: the password was changed. */
  password_changed: ['email'],
  /** An admin invited the address: set a password to join. */
  invitation: ['email', 'name', 'link'],
  /** An owner invited the address to become an administrator with `role`: set a password to join. */
  admin_invitation: ['email', 'name', 'role', 'link'],
  /** A security notice: an admin removed every second factor of the account (and ended its sessions). */
  factors_reset: ['email'],
} as const satisfies Record<string, readonly string[]>;

/**
 * Security notices: they tell an owner of a change to the account, so no send limit drops them
 * (see the per-address and hourly limits).
 */
export const NOTICE_KINDS: readonly MailKind[] = ['email_change_notice', 'password_changed', 'factors_reset'];
export type MailKind = keyof typeof MAIL_KIND_VALUES;
export const MAIL_KINDS = Object.keys(MAIL_KIND_VALUES) as MailKind[];
/** The values a message of `kind` is rendered with. */
export type MailValues<K extends MailKind> = Record<(typeof MAIL_KIND_VALUES)[K][number], string>;

/**
 * queued: waiting for its next attempt; sending: claimed by a sender until its lease ends;
 * delivered: accepted by the mail server (its body is gone); failed: refused for good, or given up.
 */
export const MAIL_STATUSES = ['queued', 'sending', 'delivered', 'failed'] as const;
export type MailStatus = (typeof MAIL_STATUSES)[number];

/** What a message's body holds: sealed while queued, opened to send it. */
export interface MailBody {
  readonly text: string;
  readonly html: string;
}

/** Seals a body under the key ring's `mail-body` secret, bound to its message's id. */
export const sealMailBody = (box: SecretBox, body: MailBody, id: string): Promise<SealedText> =>
  box.seal('mail-body', JSON.stringify(body), id);

/** Opens what sealMailBody sealed; throws when it does not open (see SecretBox.open). */
export const openMailBody = async (box: SecretBox, sealed: SealedText, id: string): Promise<MailBody> =>
  JSON.parse(await box.open('mail-body', sealed, id)) as MailBody;

/** A rendered message: what the templates make of a kind and its values. */
export interface MailContent extends MailBody {
  readonly subject: string;
}

/**
 * A message as a flow writes it, in the transaction of the change that causes it (see
 * MailQueue). Its body (text and HTML, which hold links with tokens) is sealed under the key
 * ring's `mail-body` secret, bound to the message's id; the subject must hold no secret.
 */
export interface NewMail {
  readonly id: string;
  readonly kind: MailKind;
  readonly recipient: string;
  readonly subject: string;
  readonly body: SealedText;
  readonly created: Date;
}

/** A queued message as the outbox lists it: never its body. */
export interface ListedMail {
  readonly id: string;
  readonly kind: MailKind;
  readonly recipient: string;
  readonly subject: string;
  readonly status: MailStatus;
  /** Attempts made so far, the one in progress included. */
  readonly attempts: number;
  readonly created: Date;
  /** When it is next tried (queued), or when its sender's lease ends (sending); null once settled. */
  readonly nextAttemptAt: Date | null;
  /** Why the last attempt failed, in words fit for an admin: never a secret. */
  readonly lastError: string | null;
  readonly deliveredAt: Date | null;
}

export interface MailMessage extends ListedMail {
  /** The sealed body until the message is delivered or failed, then null. */
  readonly body: SealedText | null;
}

/**
 * A message a sender has claimed for one attempt. `attempt` (its attempts after the claim) names
 * the claim: settling it changes the message only while no later claim has taken it over.
 */
export interface ClaimedMail {
  readonly id: string;
  readonly kind: MailKind;
  readonly recipient: string;
  readonly subject: string;
  readonly body: SealedText;
  readonly attempt: number;
}

/** How an attempt ends, as the sender records it. */
export type MailOutcome =
  | { readonly status: 'delivered'; readonly at: Date }
  | {
      readonly status: 'queued';
      readonly nextAttemptAt: Date;
      readonly error: string;
      /** False when the mail server could not be reached: not the message's fault, so not counted. */
      readonly counted: boolean;
    }
  | { readonly status: 'failed'; readonly error: string };

/** When to try a message again after a failed attempt, and when to give up on it. */
export interface MailRetryPolicy {
  firstDelaySeconds: number;
  maxDelaySeconds: number;
  /** Attempts after which a message that still fails is given up (status `failed`). */
  maxAttempts: number;
}

/** 5 s, 10 s, 20 s … doubling up to 10 min; given up after 15 attempts (about an hour and a half). */
export const DEFAULT_MAIL_RETRY: MailRetryPolicy = { firstDelaySeconds: 5, maxDelaySeconds: 600, maxAttempts: 15 };

/**
 * How long a claim lasts: a sender that died holding a message leaves it to another after this.
 * Every delivery attempt must end within it (the SMTP adapter's timeouts are shorter).
 */
export const MAIL_LEASE_SECONDS = 60;

/** Longest `lastError` kept: a mail server's reply can be long. */
export const MAIL_ERROR_MAX_LENGTH = 500;

/** The wait before the attempt after `attempt` (1-based): exponential, capped. */
export function retryDelaySeconds(attempt: number, policy: MailRetryPolicy = DEFAULT_MAIL_RETRY): number {
  return Math.min(policy.maxDelaySeconds, policy.firstDelaySeconds * 2 ** Math.max(0, attempt - 1));
}

/** How a failure ends attempt `attempt`: try again later, or give up. */
export function failedAttempt(
  attempt: number,
  failure: { permanent: boolean; error: string },
  now: Date,
  policy: MailRetryPolicy = DEFAULT_MAIL_RETRY,
): MailOutcome {
  const said = (error: string) => error.slice(0, MAIL_ERROR_MAX_LENGTH);
  if (failure.permanent) return { status: 'failed', error: said(failure.error) };
  if (attempt >= policy.maxAttempts) {
    return { status: 'failed', error: said(`gave up after ${attempt} attempts: ${failure.error}`) };
  }
  const error = said(failure.error);
  return { status: 'queued', nextAttemptAt: addSeconds(now, retryDelaySeconds(attempt, policy)), error, counted: true };
}

/**
 * The columns an outcome of the claim that made attempt `attempt` sets, as every store writes
 * them: a settled message loses its body and its next attempt; an unreachable server gives the
 * attempt back.
 */
export function settledColumns(attempt: number, outcome: MailOutcome) {
  switch (outcome.status) {
    case 'delivered':
      return {
        status: 'delivered',
        body: null,
        nextAttemptAt: null,
        lastError: null,
        deliveredAt: outcome.at,
      } as const;
    case 'failed':
      return { status: 'failed', body: null, nextAttemptAt: null, lastError: outcome.error } as const;
    case 'queued':
      return {
        status: 'queued',
        attempts: outcome.counted ? attempt : attempt - 1,
        nextAttemptAt: outcome.nextAttemptAt,
        lastError: outcome.error,
      } as const;
  }
}
