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
