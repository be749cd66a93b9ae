import type { ErrorDocument, ErrorObject } from '@uas/client';
import { expect } from 'vitest';
import { type ApiErrorCode, ERROR_CATALOGUE } from '@uas/adapters-http';

// What the scenarios expect of error responses, beside the status: codes, sources and titles.

/** `{ errors: [...] }` with one error per `[status, code, source?]`, titles and details aside. */
export function errorsLike(
  ...problems: (readonly [status: number, code: string, source?: { pointer: string } | { parameter: string }])[]
) {
  return {
    errors: problems.map(([status, code, source]) =>
      expect.objectContaining({
        status: String(status),
        code,
        title: expect.any(String),
        detail: expect.any(String),
        ...(source ? { source } : {}),
      }),
    ),
  };
}

/** The pointer of one attribute, as validation errors name it. */
export const attribute = (name: string) => ({ pointer: `/data/attributes/${name}` });

/** A 422 with exactly one `invalid_attribute` error per named attribute, in any order. */
export async function expectInvalidAttributes(response: Response, names: readonly string[]): Promise<void> {
  expect(response.status).toBe(422);
  const { errors } = (await response.json()) as ErrorDocument;
  const pointer = ({ source }: ErrorObject) => (source && 'pointer' in source ? source.pointer : '');
  const inPointerOrder = errors.toSorted((a, b) => pointer(a).localeCompare(pointer(b)));
  const expected = names.map(attribute).toSorted((a, b) => a.pointer.localeCompare(b.pointer));
  expect({ errors: inPointerOrder }).toEqual(
    errorsLike(...expected.map((source) => [422, 'invalid_attribute', source] as const)),
  );
}

/**
 * The response is exactly one JSON:API error with this status and code (and this detail and
 * source when given); a 401 carries the Bearer challenge of its code.
 */
export async function expectError(
  response: Response,
  status: number,
  code: ApiErrorCode,
  { detail, pointer }: { detail?: string; pointer?: string } = {},
): Promise<void> {
  expect(response.status).toBe(status);
  if (status === 401) expect(response.headers.get('www-authenticate')).toBe(ERROR_CATALOGUE[code].challenge);
  expect(await response.json()).toEqual({
    errors: [
      {
        status: String(status),
        code,
        title: ERROR_CATALOGUE[code].title,
        detail: detail ?? expect.any(String),
        ...(pointer === undefined ? {} : { source: { pointer } }),
      },
    ],
  });
}
