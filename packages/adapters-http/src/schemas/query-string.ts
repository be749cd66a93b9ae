import { invalidParameters, type ParameterProblem } from '../errors/http-problem';

/** The values of one query parameter, in order, or undefined when it is absent. */
export type QueryLookup = (name: string) => string[] | undefined;

function decode(text: string): string | null {
  try {
    return decodeURIComponent(text.replaceAll('+', ' '));
  } catch {
    return null;
  }
}

/**
 * The query string of `url`, decoded. A parameter whose percent-encoding is broken (`%FF`, `a%2`)
 * is a malformed query parameter, one 400 naming it, rather than a term searched for literally.
 */
export function decodeQueryString(url: string): QueryLookup {
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
  return (name) => parameters.get(name);
}
