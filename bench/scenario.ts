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
}
