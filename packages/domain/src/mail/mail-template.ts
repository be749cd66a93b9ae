import { token } from '../shared/token.ts';
import { MAIL_KIND_VALUES, type MailContent, type MailKind } from './mail-message.ts';

/** A kind's templates: `{{name}}` stands for the value `name`. */
export type MailTemplate = MailContent;
export const MAIL_TEMPLATE_PARTS = ['subject', 'text', 'html'] as const satisfies readonly (keyof MailTemplate)[];

/** The templates of every kind: the defaults below, or an operator's own (MAIL_TEMPLATES_DIR). */
export interface MailTemplates {
  of(kind: MailKind): MailTemplate;
}
export const MailTemplates = token<MailTemplates>('MailTemplates');

export const DEFAULT_MAIL_TEMPLATES: Record<MailKind, MailTemplate> = {
  test: {
    subject: 'Test message from the user-account service',
    text: 'This is a test message to {{recipient}}.\n\nIf you can read it, the service can send mail.\n',
    html: '<p>This is a test message to <strong>{{recipient}}</strong>.</p>\n<p>If you can read it, the service can send mail.</p>\n',
  },
  verification: {
    subject: 'Confirm your email address',
    text: 'Confirm that {{email}} is your address by opening this link:\n\n{{link}}\n\nIf you did not ask for an account, ignore this message.\n',
    html: '<p>Confirm that <strong>{{email}}</strong> is your address:</p>\n<p><a href="{{link}}">Confirm my address</a></p>\n<p>If you did not ask for an account, ignore this message.</p>\n',
  },
  signup_existing: {
    subject: 'Someone tried to sign up with your address',
    text: 'Someone tried to create an account for {{email}}, which already has one. No second account was made.\n\nIf it was you, sign in; if you never confirmed the address, ask for a new confirmation link; if you forgot the password, recover it. If not, ignore this message.\n',
    html: '<p>Someone tried to create an account for <strong>{{email}}</strong>, which already has one. No second account was made.</p>\n<p>If it was you, sign in; if you never confirmed the address, ask for a new confirmation link; if you forgot the password, recover it. If not, ignore this message.</p>\n',
  },
  recovery: {
    subject: 'Set a new password',
    text: 'Someone asked to set a new password for {{email}}. Open this link to choose one:\n\n{{link}}\n\nIf it was not you, ignore this message: your password stays as it is.\n',
    html: '<p>Someone asked to set a new password for <strong>{{email}}</strong>.</p>\n<p><a href="{{link}}">Choose a new password</a></p>\n<p>If it was not you, ignore this message: your password stays as it is.</p>\n',
  },
  email_change: {
    subject: 'Confirm your new email address',
    text: 'The account of {{email}} asked to use {{new_email}} from now on. Confirm it by opening this link:\n\n{{link}}\n\nIf you did not ask for this, ignore this message.\n',
    html: '<p>The account of <strong>{{email}}</strong> asked to use <strong>{{new_email}}</strong> from now on.</p>\n<p><a href="{{link}}">Confirm my new address</a></p>\n<p>If you did not ask for this, ignore this message.</p>\n',
  },
  email_change_notice: {
    subject: 'Your email address is being changed',
    text: 'Someone signed in to the account of {{email}} asked to change its address to {{new_email}}. The change happens once the new address confirms it.\n\nIf it was not you, change your password now.\n',
    html: '<p>Someone signed in to the account of <strong>{{email}}</strong> asked to change its address to <strong>{{new_email}}</strong>. The change happens once the new address confirms it.</p>\n<p>If it was not you, change your password now.</p>\n',
  },
  password_changed: {
    subject: 'Your password was changed',
    text: 'The password of the account of {{email}} was just changed, and every session of it ended.\n\nIf it was not you, recover your account now.\n',
    html: '<p>The password of the account of <strong>{{email}}</strong> was just changed, and every session of it ended.</p>\n<p>If it was not you, recover your account now.</p>\n',
  },
  invitation: {
    subject: 'You are invited',
    text: 'Hello {{name}},\n\nAn account was made for you ({{email}}). Choose a password to start using it:\n\n{{link}}\n',
    html: '<p>Hello {{name}},</p>\n<p>An account was made for you (<strong>{{email}}</strong>).</p>\n<p><a href="{{link}}">Choose a password</a></p>\n',
  },
  admin_invitation: {
    subject: 'You are invited to administer the user-account service',
    text: 'Hello {{name}},\n\nYou are invited to become an administrator ({{role}}) of the user-account service, as {{email}}. Choose a password to accept; the link works once, for 48 hours:\n\n{{link}}\n\nIf you did not expect this, ignore this message.\n',
    html: '<p>Hello {{name}},</p>\n<p>You are invited to become an administrator (<strong>{{role}}</strong>) of the user-account service, as <strong>{{email}}</strong>.</p>\n<p><a href="{{link}}">Choose a password</a></p>\n<p>The link works once, for 48 hours. If you did not expect this, ignore this message.</p>\n',
  },
  factors_reset: {
    subject: 'Your second factors were removed',
    text: 'An administrator removed every second factor (authenticator apps, passkeys and recovery codes) of the account of {{email}}, and ended its sessions. You can sign in with your password alone and enrol a second factor again.\n\nIf you did not ask for this, recover your account and tell your administrator.\n',
    html: '<p>An administrator removed every second factor (authenticator apps, passkeys and recovery codes) of the account of <strong>{{email}}</strong>, and ended its sessions. You can sign in with your password alone and enrol a second factor again.</p>\n<p>If you did not ask for this, recover your account and tell your administrator.</p>\n',
  },
};

const PLACEHOLDER = /\{\{\s*([A-Za-z0-9_]+)\s*\}\}/g;
const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (character) => HTML_ESCAPES[character]!);
}

/** The placeholders of `template` that `kind` has no value for, or none: a check for an operator's own. */
export function unknownPlaceholders(kind: MailKind, template: string): string[] {
  const known: readonly string[] = MAIL_KIND_VALUES[kind];
  return [...template.matchAll(PLACEHOLDER)].map((match) => match[1]!).filter((name) => !known.includes(name));
}

function fill(template: string, values: Readonly<Record<string, string>>, encode: (value: string) => string): string {
  return template.replace(PLACEHOLDER, (_whole, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`The mail template names {{${name}}}, which has no value.`);
    return encode(value);
  });
}

/**
 * Fills a kind's templates: values as they are in the subject and the text, HTML-escaped in the
 * HTML (a value never becomes markup). The subject is one line, whatever the values hold.
 */
export function renderMail(template: MailTemplate, values: Readonly<Record<string, string>>): MailContent {
  const plain = (value: string) => value;
  return {
    subject: fill(template.subject, values, plain).replace(/\s+/g, ' ').trim(),
    text: fill(template.text, values, plain),
    html: fill(template.html, values, escapeHtml),
  };
}
