import type { ProblemSource } from '@uas/domain';

/** One problem, as JSON:API error objects describe it. `status` is a string on the wire. */
export interface ErrorObject {
  /** Set on 500s: the request id, so an operator can find the log line. */
  id?: string;
  status: string;
  code: string;
  title: string;
  detail: string;
  source?: ProblemSource;
}

export interface ErrorDocument {
  errors: ErrorObject[];
}

/** A problem before it is given its HTTP status. */
export type Problem = Omit<ErrorObject, 'status'>;

export function errorDocument(status: number, problems: readonly Problem[]): ErrorDocument {
  return { errors: problems.map((problem) => ({ status: String(status), ...problem })) };
}

/** `invalid_attribute` → `Invalid attribute`: a title that never varies between occurrences. */
export function titleOf(code: string): string {
  const words = code.replaceAll('_', ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}
