import type { MailKind } from '../mail/mail-message.ts';

/**
 * What each administrator may do: one role per admin, one matrix for every admin operation.
 * Deny by default: a permission no role lists is nobody's, and an operation names exactly one
 * permission (the HTTP layer refuses to describe an admin route without one).
 */
export const ADMIN_ROLES = ['owner', 'admin', 'support', 'auditor'] as const;
export type AdminRole = (typeof ADMIN_ROLES)[number];

export const isAdminRole = (value: unknown): value is AdminRole =>
  typeof value === 'string' && (ADMIN_ROLES as readonly string[]).includes(value);

/** The role of the admin the key file describes, and of every admin that existed before roles. */
export const KEY_FILE_ADMIN_ROLE: AdminRole = 'owner';

/**
 * Every permission, with the roles that hold it. Reading a mail message's body is apart from
 * listing the outbox: a body holds recovery and verification links, which take over accounts.
 */
export const ADMIN_PERMISSIONS = {
  /** The admin's own account: who am I, own factors, own sessions and logout. */
  self: ['owner', 'admin', 'support', 'auditor'],
  /** Users, their sessions and factors, read. */
  'users.read': ['owner', 'admin', 'support', 'auditor'],
  /** Create, change and delete users; reset their factors. */
  'users.write': ['owner', 'admin'],
  'users.import': ['owner', 'admin'],
  'users.export': ['owner', 'admin'],
  /** End a user's sessions. */
  'sessions.end': ['owner', 'admin', 'support'],
  /** Send a user a recovery or verification message. */
  'users.message': ['owner', 'admin', 'support'],
  'users.ban': ['owner', 'admin', 'support'],
  /** Also needs IMPERSONATION=on. */
  'users.impersonate': ['owner', 'admin', 'support'],
  'invitations.read': ['owner', 'admin', 'auditor'],
  'invitations.write': ['owner', 'admin'],
  /** The outbox's list: kinds, recipients, states. */
  'mail.read': ['owner', 'admin', 'auditor'],
  /** A message's body, links included. */
  'mail.open': ['owner', 'admin'],
  'audit.read': ['owner', 'admin', 'auditor'],
  'stats.read': ['owner', 'admin', 'support', 'auditor'],
  /** Other administrators: invite, change roles, remove. */
  'admins.manage': ['owner'],
  /** The service's settings: identity providers, OAuth clients, webhooks. */
  'settings.manage': ['owner'],
} as const satisfies Record<string, readonly AdminRole[]>;
export type AdminPermission = keyof typeof ADMIN_PERMISSIONS;

/** The roles that hold `permission`, in ADMIN_ROLES order. */
export const rolesWith = (permission: AdminPermission): readonly AdminRole[] => ADMIN_PERMISSIONS[permission];

export const roleAllows = (role: AdminRole, permission: AdminPermission): boolean =>
  (ADMIN_PERMISSIONS[permission] as readonly AdminRole[]).includes(role);

/**
 * The permission opening a message of `kind` needs (its body holds the message's link). A link
 * must grant the opener nothing beyond their role: an administrator's invitation makes an
 * administrator with the invited role, an owner's included, so only `admins.manage` opens one.
 * Every other link acts on an end user's account (recovery, verification, email change, a user's
 * invitation), which every role holding `mail.open` may already change (`users.write`); support,
 * which may send such links but not change accounts, cannot open mail at all.
 */
export const permissionToOpen = (kind: MailKind): AdminPermission =>
  kind === 'admin_invitation' ? 'admins.manage' : 'mail.open';
