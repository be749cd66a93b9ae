import type { Figures } from './load';
import type { Scenario } from './scenarios';
import type { Memory } from './server-process';

/** A scenario's figures, or why it could not be measured. */
export type Row = { scenario: Scenario } & ({ figures: Figures } | { failure: string });

/** A Markdown table; columns of figures are aligned right. */
const table = (header: string[], rows: string[][]) => {
  const rule = header.map((_, i) => (rows.some((row) => /^[\d.]+( MiB)?$/.test(row[i] ?? '')) ? '---:' : '---'));
  return [header, rule, ...rows].map((cells) => `| ${cells.join(' | ')} |`).join('\n');
};
const ms = (value: number) => (value < 10 ? value.toFixed(1) : value.toFixed(0));
const mib = (value: number) => `${value.toFixed(0)} MiB`;
const count = (figures: Figures) => Object.values(figures.unexpected).reduce((sum, n) => sum + n, 0);

/** The figures of every scenario as a Markdown table, then what went wrong, if anything did. */
export function figuresTable(rows: Row[]): string {
  const lines = [
    table(
      ['Request', 'req/s', 'p50 ms', 'p95 ms', 'p99 ms', 'requests', 'errors', 'What it does'],
      rows.map((row) => [
        `\`${row.scenario.name}\``,
        ...('figures' in row
          ? [row.figures.perSecond.toFixed(0), ms(row.figures.p50), ms(row.figures.p95), ms(row.figures.p99), String(row.figures.requests), String(count(row.figures))]
          : ['–', '–', '–', '–', '–', 'failed']),
        row.scenario.note,
      ]),
    ),
  ];
  for (const row of rows) {
    const name = row.scenario.name;
    if (!('figures' in row)) lines.push(`- ${name} could not run: ${row.failure}`);
    else if (count(row.figures) > 0) {
      const statuses = Object.entries(row.figures.unexpected).map(([status, n]) => `${status} ×${n}`);
      lines.push(`- ${name}: expected ${row.scenario.expected}, got ${statuses.join(', ')}${row.figures.firstError ? ` (${row.figures.firstError})` : ''}`);
    }
  }
  return lines.join('\n');
}

/** Resident memory of the server process at the moments named. */
export function memoryTable(moments: [string, Memory][]): string {
  return table(
    ['Server process', 'VmRSS', 'VmHWM (peak so far)'],
    moments.map(([moment, memory]) => [moment, mib(memory.rssMiB), mib(memory.peakMiB)]),
  );
}
