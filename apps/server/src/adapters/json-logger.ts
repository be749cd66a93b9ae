import type { Logger } from '@uas/domain';

export const LOG_LEVELS = ['debug', 'info', 'warn', 'error', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

const SECRET_FIELD = /pass|token|secret|authorization|cookie|hash|jwk/i;

/** Field names remembered as secret or not: the few the code writes, bounded all the same. */
const FIELD_NAMES_HELD = 256;

/** `new Date().toISOString()`, made once per millisecond. */
function isoTimeNow(): () => string {
  let at = Number.NaN;
  let text = '';
  return () => {
    const now = Date.now();
    if (now !== at) {
      at = now;
      text = new Date(now).toISOString();
    }
    return text;
  };
}

/** One JSON object per line on stdout; fields whose names suggest a secret are never written. */
export class JsonLogger implements Logger {
  private readonly threshold: number;
  private readonly secretNames = new Map<string, boolean>();
  private readonly now = isoTimeNow();

  constructor(
    level: LogLevel,
    private readonly write: (line: string) => void = (line) => process.stdout.write(line),
  ) {
    this.threshold = LOG_LEVELS.indexOf(level);
  }

  debug(msg: string, fields?: Record<string, unknown>): void {
    this.log('debug', msg, fields);
  }
  info(msg: string, fields?: Record<string, unknown>): void {
    this.log('info', msg, fields);
  }
  warn(msg: string, fields?: Record<string, unknown>): void {
    this.log('warn', msg, fields);
  }
  error(msg: string, fields?: Record<string, unknown>): void {
    this.log('error', msg, fields);
  }

  private isSecret(name: string): boolean {
    let secret = this.secretNames.get(name);
    if (secret === undefined) {
      secret = SECRET_FIELD.test(name);
      if (this.secretNames.size < FIELD_NAMES_HELD) this.secretNames.set(name, secret);
    }
    return secret;
  }

  private log(level: Exclude<LogLevel, 'silent'>, msg: string, fields: Record<string, unknown> = {}): void {
    if (LOG_LEVELS.indexOf(level) < this.threshold) return;
    // The fields follow time, level and msg, in their order; a field of one of those names
    // takes its value in that first place, as an object spread would.
    const entry: Record<string, unknown> = { time: this.now(), level, msg };
    for (const name of Object.keys(fields)) {
      const value = this.isSecret(name) ? '[redacted]' : fields[name];
      if (name === '__proto__') Object.defineProperty(entry, name, { value, enumerable: true, writable: true });
      else entry[name] = value;
    }
    this.write(`${JSON.stringify(entry)}\n`);
  }
}
