import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { type ApiErrorCode, ERROR_CATALOGUE } from './error-catalogue';

/** The rows of docs/API.md's table of every error code: status, code and the extra header. */
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
      rows.set(code!, { statuses: status.split(',').map((item) => item.trim()), header });
    }
  }
  return rows;
}

describe('the error catalogue', () => {
  const documented = documentedCodes();

  it('documents exactly its codes in docs/API.md', () => {
    expect([...documented.keys()].sort()).toEqual(Object.keys(ERROR_CATALOGUE).sort());
  });

  it.each(Object.entries(ERROR_CATALOGUE))('%s: docs/API.md gives its status and challenge', (code, row) => {
    const entry = documented.get(code as ApiErrorCode);
    expect(
      entry?.statuses.some((status) => new RegExp(`^${status.replaceAll('x', '\\d')}$`).test(String(row.status))),
    ).toBe(true);
    if (row.challenge) expect(entry?.header).toContain(`\`WWW-Authenticate: ${row.challenge}\``);
    else expect(entry?.header).not.toContain('WWW-Authenticate');
  });
});
