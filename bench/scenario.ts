import type { Step } from './load';

/** One request type, sent by every worker in turn. */
interface Traffic {
  name: string;
  expected: number;
  /** The step of one worker; any set-up it needs (a login) happens here, unmeasured. */
  prepare(worker: number): Promise<Step>;
}

export interface Scenario extends Traffic {
  /** What a request does, in a few words, for the table. */
  note: string;
  /** Requests sent one at a time, each from a single client, while the load runs: what other users of the service see. */
  probes?: Traffic[];
  /**
   * Its single-use answers are made ahead, and expire within a minute or so (a TOTP step, an
   * authorization code, a passkey challenge): with several servers it runs on each in one go,
   * right after they are made, rather than in slices spread over all of them.
   */
  madeAhead?: true;
}
