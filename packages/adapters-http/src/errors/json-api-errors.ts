import type { ProblemSource } from '@uas/domain';
import * as v from 'valibot';
import { type ApiErrorCode, ERROR_CATALOGUE, wireCode } from './error-catalogue';

/** One problem, before it is given its HTTP status; its title follows from its code. */
export interface Problem {
  /** Set on 500s: the request id, so an operator can find the log line. */
  id?: string;
  code: ApiErrorCode;
  detail: string;
  source?: ProblemSource;
}

export const API_ERROR_CODES = Object.keys(ERROR_CATALOGUE) as ApiErrorCode[];
/** The codes as the wire shows them: each once. */
const WIRE_CODES = [...new Set(API_ERROR_CODES.map(wireCode))];

export const errorObjectSchema = v.object({
  status: v.pipe(v.string(), v.description('The HTTP status, as a string.')),
  id: v.optional(v.pipe(v.string(), v.description('On a 500: the request id to quote when reporting it.'))),
  code: v.picklist(WIRE_CODES),
  title: v.pipe(v.string(), v.description('The same for every occurrence of the code.')),
  detail: v.string(),
  source: v.optional(
    v.union([
      v.object({ pointer: v.pipe(v.string(), v.description('A JSON Pointer into the request body.')) }),
      v.object({ parameter: v.pipe(v.string(), v.description('The query parameter at fault.')) }),
    ]),
  ),
});

export const errorDocumentSchema = v.object({ errors: v.array(errorObjectSchema) });

/** The JSON:API error document: one error object per problem, `status` a string on the wire. */
export function errorDocument(status: number, problems: readonly Problem[]): v.InferOutput<typeof errorDocumentSchema> {
  return {
    errors: problems.map(({ id, code, detail, source }) => ({
      status: String(status),
      ...(id === undefined ? {} : { id }),
      code: wireCode(code),
      title: ERROR_CATALOGUE[code].title,
      detail,
      ...(source === undefined ? {} : { source }),
    })),
  };
}
