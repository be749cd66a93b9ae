import { ValidationError, type ValidationIssue } from '@uas/domain';
import type { Context, MiddlewareHandler } from 'hono';
import * as v from 'valibot';
import type { AppEnv } from '../app-env';

/** RFC 6901: `~` and `/` inside a key are escaped. */
function pointerOf(path: readonly unknown[]): string {
  return path.map((key) => `/${String(key).replaceAll('~', '~0').replaceAll('/', '~1')}`).join('');
}

/**
 * The detail of one issue, written from the schema's own messages and never from the input: a
 * default valibot message quotes the received value, which may be a password.
 */
function detailOf(issue: v.BaseIssue<unknown>, name: string | undefined): string {
  if (name === undefined) return 'The request body must be a JSON object.';
  if (issue.kind === 'validation') return issue.message; // domain rule details name their attribute
  if (issue.received === 'undefined') return `${name} is required`;
  if (issue.received === 'null') return `${name} must not be null`;
  return issue.message.startsWith('Invalid ') ? `${name} is invalid` : `${name} ${issue.message}`;
}

function validationIssue(issue: v.BaseIssue<unknown>): ValidationIssue {
  const path = (issue.path ?? []).map((item) => item.key);
  const last = path.at(-1);
  return {
    source: { pointer: pointerOf(path) },
    detail: detailOf(issue, last === undefined ? undefined : String(last)),
  };
}

/** Parses `input`, reporting every problem at once as the domain's ValidationError (422). */
export function parseWith<S extends v.GenericSchema>(schema: S, input: unknown): v.InferOutput<S> {
  const result = v.safeParse(schema, input, { abortEarly: false });
  if (!result.success) throw new ValidationError(result.issues.map(validationIssue));
  return result.output;
}

type Validated<E extends AppEnv, Target extends 'json' | 'query', In, Out> = MiddlewareHandler<
  E,
  string,
  { in: { [K in Target]: In }; out: { [K in Target]: Out } }
>;

/**
 * Validates the JSON body the body guard parsed (an absent body reads as `{}`) and hands the
 * result to the handler as `c.req.valid('json')`.
 */
export function jsonBody<Out, E extends AppEnv = AppEnv>(
  parse: (body: unknown, c: Context<E>) => Out,
): Validated<E, 'json', unknown, Out> {
  return async (c, next) => {
    c.req.addValidatedData('json', parse(c.get('jsonBody') ?? {}, c) as object);
    await next();
  };
}

/** Validates the query string and hands the result to the handler as `c.req.valid('query')`. */
export function queryParameters<In, Out>(parse: (c: Context<AppEnv>) => Out): Validated<AppEnv, 'query', In, Out> {
  return async (c, next) => {
    c.req.addValidatedData('query', parse(c) as object);
    await next();
  };
}
