import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ERROR_CATALOGUE, wireCode, type ApiErrorCode } from './error-catalogue';

/**
 * The rows of docs/API.md's table of every error code: status, code and the extra header, keyed
 * by the code and its status (a code may show at two statuses).
 */
function documentedCodes(): Map<string, { statuses: string[]; header: string }> {
  const api = readFileSync(new URL('../../../../docs/API.md', import.meta.url), 'utf8');
  const table = api.slice(api.indexOf('**Every code**')).split('\n\n')[1] ?? '';
  const rows = new Map<string, { statuses: string[]; header: string }>();
  for (const line of table.split('\n').slice(2)) {
    const [status = '', codes = '', header = ''] = line
      .split('|')
      .slice(1)
      .map((cell) => cell.trim());
    for (const [, code] of codes.matchAll(/`([a-z_]+)`/g)) {
      const statuses = status.split(',').map((item) => item.trim());
      rows.set(`${code} ${statuses.join(',')}`, { statuses, header });
    }
  }
  return rows;
}

describe('the error catalogue', () => {
  const documented = documentedCodes();

  /** The documented row of a code of the catalogue: its code on the wire, at its status. */
  const rowOf = (code: ApiErrorCode) =>
    [...documented].find(
      ([key, { statuses }]) =>
        key.startsWith(`${wireCode(code)} `) &&
        statuses.some((status) =>
          new RegExp(`^${status.replaceAll('x', '\\d')}$`).test(String(ERROR_CATALOGUE[code].status)),
        ),
    )?.[1];

  it('documents exactly its codes in docs/API.md, each at its status', () => {
    const codes = Object.keys(ERROR_CATALOGUE) as ApiErrorCode[];
    expect(codes.filter((code) => !rowOf(code))).toEqual([]);
    expect(documented.size).toBe(codes.length);
  });

  it.each(Object.entries(ERROR_CATALOGUE))('%s: docs/API.md gives its status and challenge', (code, row) => {
    const entry = rowOf(code as ApiErrorCode);
    expect(
      entry?.statuses.some((status) => new RegExp(`^${status.replaceAll('x', '\\d')}$`).test(String(row.status))),
    ).toBe(true);
    if (row.challenge) expect(entry?.header).toContain(`\`WWW-Authenticate: ${row.challenge}\``);
    else expect(entry?.header).not.toContain('WWW-Authenticate');
  });
});
