import type { Clock } from '../shared/clock.ts';
import { NotFoundError, ValidationError } from '../shared/errors.ts';
import type { IdGenerator } from '../shared/id-generator.ts';
import type { Logger } from '../shared/logger.ts';
import type { SecretBox } from '../secrets/secret-box.ts';
import { isValidEmail, normalizeEmail } from '../users/user.rules.ts';
import {
  openMailBody,
  sealMailBody,
  type ListedMail,
  type MailContent,
  type MailKind,
  type MailValues,
  type NewMail,
} from './mail-message.ts';
import type { MailPage, MailQueue } from './mail-queue.ts';
import { renderMail, type MailTemplates } from './mail-template.ts';

export interface MailServiceDeps {
  queue: MailQueue;
  box: SecretBox;
  templates: MailTemplates;
  clock: Clock;
  ids: IdGenerator;
  logger: Logger;
}

/** A message as the outbox shows one: its content while it is still to be sent, then null. */
export interface MailView {
  message: ListedMail;
  content: MailContent | null;
}

/** Writing messages into the outbox, and reading it. */
export class MailService {
  constructor(private readonly deps: MailServiceDeps) {}

  /**
   * Renders a message of `kind` for `recipient` and seals its body: the row a flow writes in the
   * transaction of its change (see MailQueue). Nothing is stored yet.
   */
  async compose<K extends MailKind>(kind: K, recipient: string, values: MailValues<K>): Promise<NewMail> {
    const { box, templates, clock, ids } = this.deps;
    const id = ids.next();
    const content = renderMail(templates.of(kind), values);
    const sealed = await sealMailBody(box, { text: content.text, html: content.html }, id);
    return { id, kind, recipient, subject: content.subject, body: sealed, created: clock.now() };
  }

  /** Queues a `test` message to `address`: how an operator checks that mail goes out. */
  async sendTest(address: string): Promise<NewMail> {
    const recipient = normalizeEmail(address);
    if (!isValidEmail(recipient)) {
      throw new ValidationError([
        { source: { pointer: '/data/attributes/recipient' }, detail: 'recipient must be a valid email address' },
      ]);
    }
    const message = await this.compose('test', recipient, { recipient });
    await this.deps.queue.enqueue(message);
    this.queued(message);
    return message;
  }

  list(query: { page: number; size: number }): Promise<MailPage> {
    return this.deps.queue.list(query);
  }

  /**
   * The message with its content opened, while it still has one; NotFoundError when there is none.
   * A body that no longer opens (its secret gone, its bytes changed) shows as none, and is logged.
   */
  async read(id: string): Promise<MailView> {
    const stored = await this.deps.queue.findById(id);
    if (!stored) throw new NotFoundError('mail message');
    const { body, ...message } = stored;
    if (!body) return { message, content: null };
    try {
      const opened = await openMailBody(this.deps.box, body, id);
      return { message, content: { subject: message.subject, text: opened.text, html: opened.html } };
    } catch (error) {
      this.deps.logger.warn('a mail body does not open', { mailId: id, error: (error as Error)?.message });
      return { message, content: null };
    }
  }

  /** Says that a message waits, by id and kind only: its body holds links with tokens. */
  private queued(message: Pick<NewMail, 'id' | 'kind'>): void {
    this.deps.logger.info('mail queued', { mailId: message.id, kind: message.kind });
  }
}
