import type { LogFields, Logger } from '../shared/logger.ts';

export interface LogEntry {
  level: 'debug' | 'info' | 'warn' | 'error';
  msg: string;
  fields: LogFields;
}

/** A Logger that keeps every line, so tests can check what was (and was not) logged. */
export class RecordingLogger implements Logger {
  readonly entries: LogEntry[] = [];
  debug(msg: string, fields: LogFields = {}): void {
    this.entries.push({ level: 'debug', msg, fields });
  }
  info(msg: string, fields: LogFields = {}): void {
    this.entries.push({ level: 'info', msg, fields });
  }
  warn(msg: string, fields: LogFields = {}): void {
    this.entries.push({ level: 'warn', msg, fields });
  }
  error(msg: string, fields: LogFields = {}): void {
    this.entries.push({ level: 'error', msg, fields });
  }
  /** Every line as text, for "must not contain" checks. */
  text(): string {
    return this.entries.map((entry) => `${entry.level} ${entry.msg} ${JSON.stringify(entry.fields)}`).join('\n');
  }
}
