import { invalidParameters, type ParameterProblem } from '../errors/http-problem';

/** The values of one query parameter, in order, or undefined when it is absent. */
export type QueryLookup = (name: string) => string[] | undefined;

/** A `%` that starts no escape (`a%b`, a lone `%`) is the percent sign itself, as clients mean it. */
const STRAY_PERCENT = /%(?![0-9a-fA-F]{2})/g;

function decode(text: string): string | null {
  try {
    return decodeURIComponent(text.replaceAll('+', ' ').replace(STRAY_PERCENT, '%25'));
  } catch {
    return null;
  }
}

/**
 * The query string of `url`, decoded. A parameter whose escapes do not spell UTF-8 (`%FF`,
 * `%ED%A0%80`) is a malformed query parameter, one 400 naming it, rather than a term searched
 * for literally; a stray `%` is taken literally.
 */
function decodeParameters(url: string): Map<string, string[]> {
  const start = url.indexOf('?');
  const parameters = new Map<string, string[]>();
  const problems: ParameterProblem[] = [];
  for (const pair of start < 0 ? [] : url.slice(start + 1).split('&')) {
    if (pair === '') continue;
    const equals = pair.indexOf('=');
    const rawName = equals < 0 ? pair : pair.slice(0, equals);
    const name = decode(rawName) ?? rawName;
    const value = decode(equals < 0 ? '' : pair.slice(equals + 1));
    if (value === null || decode(rawName) === null) {
      problems.push({ parameter: name, detail: `${name} is not validly percent-encoded UTF-8` });
      continue;
    }
    parameters.set(name, [...(parameters.get(name) ?? []), value]);
  }
  if (problems.length > 0) throw invalidParameters(problems);
  return parameters;
}

export function decodeQueryString(url: string): QueryLookup {
  const parameters = decodeParameters(url);
  return (name) => parameters.get(name);
}

/**
 * 400 for each query parameter a route does not read: a misspelt `page[sise]` would otherwise be
 * ignored without a word, and the client would never learn why its page has 20 users. JSON:API
 * asks the same of parameters a server does not know.
 */
export function rejectUnknownParameters(url: string, known: ReadonlySet<string>): void {
  if (!url.includes('?')) return;
  const unknown = [...decodeParameters(url).keys()].filter((name) => !known.has(name));
  if (unknown.length > 0) {
    throw invalidParameters(
      unknown.map((parameter) => ({ parameter, detail: `${parameter} is not a parameter of this endpoint` })),
    );
  }
}
