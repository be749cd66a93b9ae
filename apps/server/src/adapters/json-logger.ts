import type { Logger } from '@uas/domain';

export const LOG_LEVELS = ['debug', 'info', 'warn', 'error', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

const SECRET_FIELD = /pass|token|secret|authorization|cookie|hash|jwk/i;

/** One JSON object per line on stdout; fields whose names suggest a secret are never written. */
export class JsonLogger implements Logger {
  private readonly threshold: number;

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

  private log(level: Exclude<LogLevel, 'silent'>, msg: string, fields: Record<string, unknown> = {}): void {
    if (LOG_LEVELS.indexOf(level) < this.threshold) return;
    const safe = Object.fromEntries(
      Object.entries(fields).map(([key, value]) => [key, SECRET_FIELD.test(key) ? '[redacted]' : value]),
    );
    this.write(`${JSON.stringify({ time: new Date().toISOString(), level, msg, ...safe })}\n`);
  }
}
