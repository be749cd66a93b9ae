import { type ApiErrorCode, ERROR_CATALOGUE, wireCode } from '../errors/error-catalogue';
import { API_ERROR_CODES, errorDocument } from '../errors/json-api-errors';

const statusOfCode = (code: ApiErrorCode): number => ERROR_CATALOGUE[code].status;

/** What any request can meet, whatever its route: the body guard, the query check, Node's own refusals, a fault. */
export const EVERY_ROUTE_ERRORS: readonly ApiErrorCode[] = [
  'malformed_json',
  'malformed_request',
  'bad_request',
  'invalid_parameter',
  'payload_too_large',
  'unsupported_media_type',
  'headers_too_large',
  'request_timeout',
  'expectation_failed',
  'database_unavailable',
  'internal_error',
];

const HEADERS_BY_STATUS: Record<number, string[]> = {
  401: ['WWW-Authenticate'],
  405: ['Allow'],
  429: ['Retry-After'],
  503: ['Retry-After'],
};

/** One example error document per code, which every response that can give the code refers to. */
export const errorExamples = () =>
  Object.fromEntries(
    API_ERROR_CODES.map((code) => [
      code,
      {
        summary: wireCode(code),
        value: errorDocument(statusOfCode(code), [{ code, detail: 'What was wrong, in words fit for the client.' }]),
      },
    ]),
  );

export const headerRefs = (names: readonly string[]) =>
  Object.fromEntries(['X-Request-Id', ...names].map((name) => [name, { $ref: `#/components/headers/${name}` }]));

/**
 * One response per status among `codes`: the JSON:API error document, its `code` narrowed to
 * the codes this operation can give at that status, and an example of each.
 */
export function errorResponses(codes: readonly ApiErrorCode[]): Record<string, unknown> {
  const byStatus = new Map<number, ApiErrorCode[]>();
  for (const code of new Set(codes)) {
    const status = statusOfCode(code);
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  return Object.fromEntries(
    [...byStatus].map(([status, statusCodes]) => [
      String(status),
      {
        description: statusCodes.map((code) => `\`${wireCode(code)}\``).join(', '),
        headers: headerRefs(HEADERS_BY_STATUS[status] ?? []),
        content: {
          'application/json': {
            schema: {
              allOf: [
                { $ref: '#/components/schemas/ErrorDocument' },
                { properties: { errors: { items: { properties: { code: { enum: statusCodes.map(wireCode) } } } } } },
              ],
            },
            examples: Object.fromEntries(statusCodes.map((code) => [code, { $ref: `#/components/examples/${code}` }])),
          },
        },
      },
    ]),
  );
}
