import type { Clock } from '../shared/clock.ts';
import { TooManyAttemptsError } from '../shared/errors.ts';
import type { RateCounterRepository } from './rate-counter.repository.ts';

export interface MailRequestLimitDeps {
  counters: RateCounterRepository;
  clock: Clock;
  /** Requests one client address may make per minute to the endpoints that send mail (MAIL_REQUESTS_PER_MINUTE). */
  perMinute: number;
}

const WINDOW_SECONDS = 60;

/** What a refused client is told: nothing about the address in its request, which was not looked at. */
export const MAIL_REQUESTS_REFUSAL = 'Too many requests that send mail from this address; try again later.';

/**
 * The per-client-address limit of the endpoints that send mail (sign-up, recover, resend, email
 * change), counted together in the database so that every instance counts every request. It is
 * decided before the body is read, so the answer is the same whatever address a request names:
 * a 429 tells nothing about which addresses exist.
 */
export class MailRequestLimit {
  constructor(private readonly deps: MailRequestLimitDeps) {}

  /** Counts a request from `clientAddress`; TooManyAttemptsError (with the wait) once it is over the limit. */
  async enter(clientAddress: string): Promise<void> {
    const { counters, clock, perMinute } = this.deps;
    const now = clock.now();
    const { count, windowEnds } = await counters.hit(`mail-requests:${clientAddress}`, now, WINDOW_SECONDS);
    if (count <= perMinute) return;
    const wait = Math.max(1, Math.ceil((windowEnds.getTime() - now.getTime()) / 1000));
    throw new TooManyAttemptsError(wait, MAIL_REQUESTS_REFUSAL);
  }
}
