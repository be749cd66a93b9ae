export type LogFields = Record<string, unknown>;

/**
 * The structured logger the server injects. The HTTP layer logs one line per request and one per
 * unexpected error; it never passes bodies, headers, query values, tokens or passwords.
 */
export interface Logger {
  debug(msg: string, fields?: LogFields): void;
  info(msg: string, fields?: LogFields): void;
  warn(msg: string, fields?: LogFields): void;
  error(msg: string, fields?: LogFields): void;
}
