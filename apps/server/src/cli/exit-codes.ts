/** What `uas` exits with, so scripts can tell the outcomes apart (docs/migration.md lists them). */
export const EXIT = {
  ok: 0,
  /** The work could not be done: the database unreachable, a file unreadable, a fault. */
  failed: 1,
  /** The command line itself is wrong: an unknown command or option, a bad value. */
  usage: 2,
  /** An import (or its dry run) finished, but some records were rejected. */
  rejected: 3,
  /** An import with `--on-conflict fail` stopped at an existing user. */
  conflict: 4,
  /** `audit verify` found the audit trail changed: an event edited, removed or moved. */
  tampered: 5,
} as const;

/** Ends the command with a message on stderr and a given exit code. */
export class CliExit extends Error {
  constructor(
    readonly exitCode: number,
    message: string,
  ) {
    super(message);
  }
}
