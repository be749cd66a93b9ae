export type LogFields = Record<string, unknown>;

/**
 * The structured logger port: the server injects one into every adapter that logs. Callers never
 * pass bodies, headers, query values, tokens or passwords (the HTTP layer logs one line per request
 * and one per unexpected error).
 */
export interface Logger {
  debug(msg: string, fields?: LogFields): void;
  info(msg: string, fields?: LogFields): void;
  warn(msg: string, fields?: LogFields): void;
  error(msg: string, fields?: LogFields): void;
}
