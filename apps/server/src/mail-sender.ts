import type { Logger, MailDelivery, Mailer } from '@uas/domain';
import { type LoopControl, startBackgroundLoop } from './background-loop';

/**
 * Messages attempted at once: one round claims this many, and sends them concurrently, each over
 * a connection of the mailer's pool (see SMTP_CONNECTIONS).
 */
export const SEND_CONCURRENCY = 8;

export interface MailSenderOptions {
  delivery: MailDelivery;
  mailer: Mailer;
  logger: Logger;
  /**
   * How long to wait for due messages after a round that found fewer than it could take: what a
   * message queued while the sender is idle waits at most, before its delivery starts. A round
   * that found a full batch is followed at once by the next.
   */
  pollMs?: number;
  /** Longest wait between checks while the mail server is unreachable (they start at a second). */
  probeMaxMs?: number;
}

export interface MailSender {
  /** Lets the attempts in progress finish (at most `graceMs`), then stops claiming. */
  stop(graceMs: number): Promise<void>;
}

/**
 * The sender every instance runs when SMTP_URL is set: it claims due messages, delivers them and
 * records each attempt, over and over. While the mail server is unreachable it claims nothing and
 * checks the server instead, at most `probeMaxMs` apart, so the queue goes out within that long
 * of the server's return. Claims never share a message, so each goes out once however many
 * instances run (a sender that dies holding one leaves it to another after the lease).
 */
export function startMailSender({
  delivery,
  mailer,
  logger,
  pollMs = 250,
  probeMaxMs = 30_000,
}: MailSenderOptions): MailSender {
  const waitForServer = async ({ pause, stopped }: LoopControl) => {
    logger.warn('the mail server is unreachable; messages stay queued until it answers');
    for (let wait = Math.min(1_000, probeMaxMs); !stopped(); wait = Math.min(wait * 2, probeMaxMs)) {
      await pause(wait);
      if (stopped()) return;
      try {
        await mailer.check();
        logger.info('the mail server answers again');
        return;
      } catch {
        // Still down: wait longer, up to probeMaxMs.
      }
    }
  };

  const loop = startBackgroundLoop(async (control) => {
    try {
      const round = await delivery.deliverDue(SEND_CONCURRENCY);
      if (round.unreachable) await waitForServer(control);
      else if (round.claimed < SEND_CONCURRENCY) await control.pause(pollMs);
    } catch (error) {
      logger.warn('the mail sender could not read the queue', { error: (error as Error)?.message });
      await control.pause(pollMs);
    }
  });

  return {
    async stop(graceMs) {
      await loop.stop(graceMs);
      mailer.close();
    },
  };
}
