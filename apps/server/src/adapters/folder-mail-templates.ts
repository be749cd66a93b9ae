import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import {
  DEFAULT_MAIL_TEMPLATES,
  MAIL_KINDS,
  MAIL_TEMPLATE_PARTS,
  unknownPlaceholders,
  type MailKind,
  type MailTemplate,
  type MailTemplates,
} from '@uas/domain';

/** The file of each part of a kind's templates: `<kind>.subject.txt`, `<kind>.txt`, `<kind>.html`. */
const FILE_SUFFIX: Record<keyof MailTemplate, string> = { subject: '.subject.txt', text: '.txt', html: '.html' };

/**
 * The default templates, each part replaced by its file in `dir` when there is one. Read once, at
 * start; a file naming a value its kind does not have stops the start, naming the file.
 */
export function mailTemplatesFrom(dir: string): MailTemplates {
  if (dir === '') return { of: (kind) => DEFAULT_MAIL_TEMPLATES[kind] };
  if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new Error('must be a directory');
  const templates = Object.fromEntries(
    MAIL_KINDS.map((kind) => {
      const parts = MAIL_TEMPLATE_PARTS.map((part) => {
        const file = join(dir, `${kind}${FILE_SUFFIX[part]}`);
        if (!existsSync(file)) return [part, DEFAULT_MAIL_TEMPLATES[kind][part]];
        const text = readFileSync(file, 'utf8');
        const unknown = unknownPlaceholders(kind, text);
        if (unknown.length > 0) {
          throw new Error(
            `${file} names ${unknown.map((name) => `{{${name}}}`).join(', ')}, which a ${kind} message has no value for`,
          );
        }
        return [part, text];
      });
      return [kind, Object.fromEntries(parts) as MailTemplate];
    }),
  ) as Record<MailKind, MailTemplate>;
  return { of: (kind) => templates[kind] };
}
