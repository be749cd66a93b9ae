import nodemailer, { type Transporter } from 'nodemailer';
import { MailDeliveryError, type Mailer, type MailFailure, type OutgoingMail } from '@uas/domain';
import { SEND_CONCURRENCY } from '../mail-sender';

/** Where mail goes, as SMTP_URL and MAIL_FROM say. */
export interface SmtpSettings {
  /** `smtp://user:pass@host:port` (STARTTLS when offered) or `smtps://…` (TLS from the start). */
  url: URL;
  /** The From header: an address, or `Name <address>`. */
  from: string;
}

/** Errors that say nothing about the message: the server could not be reached or would not talk. */
const UNREACHABLE_CODES = new Set([
  'ECONNECTION',
  'ETIMEDOUT',
  'ESOCKET',
  'EDNS',
  'ETLS',
  'EPROXY',
  'EAUTH',
  'ENOAUTH',
]);
/** 421: the service is not available, whatever the message. */
const SERVICE_NOT_AVAILABLE = 421;

/**
 * Every wait ends well inside the claim's lease (MAIL_LEASE_SECONDS), so no attempt outlives it;
 * nodemailer's defaults (two minutes to connect, ten idle) would.
 */
const TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 };

/**
 * Connections are kept open and reused: a new one per message (TCP, greeting, EHLO, AUTH) held
 * the sender to a few dozen messages a second. One per message a sender round attempts, so no
 * attempt waits in nodemailer's queue for a connection, and the timeouts above still bound it
 * within the lease. The mail benchmark's ceiling (nodemailer alone) uses the same settings.
 */
export const SMTP_CONNECTIONS = { pool: true, maxConnections: SEND_CONCURRENCY } as const;

interface NodemailerError {
  code?: string;
  responseCode?: number;
  response?: string;
  permanent?: boolean;
  message?: string;
}

/** Hands messages to an SMTP server with nodemailer, over a pool of connections kept open. */
export class SmtpMailer implements Mailer {
  private readonly transport: Transporter;
  private readonly password: string;
  private readonly messageIdDomain: string;

  constructor({ url, from }: SmtpSettings) {
    this.password = decodeURIComponent(url.password);
    const secure = url.protocol === 'smtps:';
    this.transport = nodemailer.createTransport(
      {
        host: url.hostname.replace(/^\[|\]$/g, ''),
        port: url.port ? Number(url.port) : secure ? 465 : 587,
        secure,
        auth: url.username ? { user: decodeURIComponent(url.username), pass: this.password } : undefined,
        ...TIMEOUTS,
        ...SMTP_CONNECTIONS,
        logger: false,
      },
      { from },
    );
    this.messageIdDomain = /@([^>\s]+)>?\s*$/.exec(from)?.[1] ?? 'localhost';
  }

  async deliver(mail: OutgoingMail): Promise<void> {
    try {
      await this.transport.sendMail({
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
        html: mail.html,
        // The queued message's id: a receiver (or an operator) can tell a repeat after a lost reply.
        messageId: `<${mail.id}@${this.messageIdDomain}>`,
      });
    } catch (error) {
      throw this.deliveryError(error);
    }
  }

  async check(): Promise<void> {
    try {
      await this.transport.verify();
    } catch (error) {
      throw this.deliveryError(error);
    }
  }

  close(): void {
    this.transport.close();
  }

  private deliveryError(error: unknown): MailDeliveryError {
    const { code, responseCode, response, permanent, message } = (error ?? {}) as NodemailerError;
    let failure: MailFailure = 'transient';
    if ((code && UNREACHABLE_CODES.has(code)) || responseCode === SERVICE_NOT_AVAILABLE) failure = 'unreachable';
    else if (permanent) failure = 'permanent';
    const said = response ?? message ?? String(error);
    // A server may echo what it was sent; the password never goes further than this adapter.
    const reason = `${code ?? 'SMTP'}${responseCode ? ` ${responseCode}` : ''}: ${said}`;
    return new MailDeliveryError(failure, this.password ? reason.replaceAll(this.password, '***') : reason);
  }
}
