import type { Clock } from '../shared/clock.ts';
import { TooManyAttemptsError } from '../shared/errors.ts';
import type { RateCounterRepository } from './rate-counter.repository.ts';

export interface AddressRequestLimitDeps {
  counters: RateCounterRepository;
  clock: Clock;
  /** Requests one client address may make per minute to the endpoints the limit guards. */
  perMinute: number;
}

const WINDOW_SECONDS = 60;

/**
 * A per-client-address limit of some endpoints, counted together under `scope` in the database so
 * that every instance counts every request. It is decided before the body is read, so the answer
 * is the same whatever a request names.
 */
export class AddressRequestLimit {
  constructor(
    private readonly deps: AddressRequestLimitDeps,
    private readonly scope: string,
    /** What a refused client is told. */
    private readonly refusal: string,
  ) {}

  /** Counts a request from `clientAddress`; TooManyAttemptsError (with the wait) once it is over the limit. */
  async enter(clientAddress: string): Promise<void> {
    const { counters, clock, perMinute } = this.deps;
    const now = clock.now();
    const { count, windowEnds } = await counters.hit(`${this.scope}:${clientAddress}`, now, WINDOW_SECONDS);
    if (count <= perMinute) return;
    const wait = Math.max(1, Math.ceil((windowEnds.getTime() - now.getTime()) / 1000));
    throw new TooManyAttemptsError(wait, this.refusal);
  }
}
