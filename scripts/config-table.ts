// `pnpm config-table`: rewrites the README's configuration table from the variables declared in
// apps/server/src/config-variables.ts. A test fails while the README differs from what this writes.
import { readFileSync, writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { VARIABLES } from '../apps/server/src/config-variables';

export const README = new URL('../README.md', import.meta.url);

/** The table, with aligned columns, as Markdown. */
function configurationTable(): string {
  const rows = Object.entries(VARIABLES).map(([name, declaration]) => [
    `\`${name}\``,
    declaration.default === '' ? '_(none)_' : `\`${declaration.default}\``,
    declaration.doc,
  ]);
  const all = [['Variable', 'Default', 'Meaning'], ...rows];
  const widths = [0, 1, 2].map((column) => Math.max(...all.map((row) => row[column]!.length)));
  const line = (cells: string[]) => `| ${cells.map((cell, column) => cell.padEnd(widths[column]!)).join(' | ')} |`;
  return [line(all[0]!), `| ${widths.map((width) => '-'.repeat(width)).join(' | ')} |`, ...rows.map(line)].join('\n');
}

/** `readme` with its configuration table (from its `| Variable` header to the next blank line) regenerated. */
export function withConfigurationTable(readme: string): string {
  const start = readme.search(/^\| Variable /m);
  const end = readme.indexOf('\n\n', start);
  if (start < 0 || end < 0) throw new Error('README.md has no configuration table.');
  return readme.slice(0, start) + configurationTable() + readme.slice(end);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  writeFileSync(README, withConfigurationTable(readFileSync(README, 'utf8')));
}
