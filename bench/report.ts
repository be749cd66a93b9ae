import type { Figures } from './load';
import type { ProcessMemory } from '../scripts/release-process';

/** A measured request type's figures, or why it could not be measured. */
export type Row = {
  name: string;
  note: string;
  expected: number /** A probe's share of the ceiling means nothing. */;
  probe: boolean;
} & ({ figures: Figures } | { failure: string });

/** A Markdown table; columns of figures are aligned right. */
export const table = (header: string[], rows: string[][]) => {
  const rule = header.map((_, i) => (rows.some((row) => /^[\d.]+( MiB| %)?$/.test(row[i] ?? '')) ? '---:' : '---'));
  return [header, rule, ...rows].map((cells) => `| ${cells.join(' | ')} |`).join('\n');
};
const ms = (value: number) => (value < 10 ? value.toFixed(1) : value.toFixed(0));
const mib = (value: number) => `${value.toFixed(0)} MiB`;
const percent = (value: number) => `${value < 10 ? value.toFixed(1) : value.toFixed(0)} %`;
const count = (figures: Figures) => Object.values(figures.unexpected).reduce((sum, n) => sum + n, 0);
/** A row's figures, when every answer was the expected one: a target met by errors is not met. */
const cleanFigures = (row: Row | undefined) =>
  row && 'figures' in row && count(row.figures) === 0 ? row.figures : null;
/** The clean figures (cleanFigures) of the row named `name`, not a probe's. */
export const figuresOf = (rows: readonly Row[], name: string) =>
  cleanFigures(rows.find((each) => each.name === name && !each.probe)) ?? undefined;

/**
 * The figures of every row as a Markdown table, each beside its share of the ceiling (the bare
 * server's requests/s in the same run), then what went wrong, if anything did.
 */
export function figuresTable(rows: Row[], ceiling: Figures): string {
  const lines = [
    table(
      ['Request', 'req/s', 'of ceiling', 'p50 ms', 'p95 ms', 'p99 ms', 'requests', 'errors', 'What it does'],
      rows.map((row) => [
        `\`${row.name}\``,
        ...('figures' in row
          ? [
              row.figures.perSecond.toFixed(0),
              row.probe ? '–' : percent((100 * row.figures.perSecond) / ceiling.perSecond),
              ms(row.figures.p50),
              ms(row.figures.p95),
              ms(row.figures.p99),
              String(row.figures.requests),
              String(count(row.figures)),
            ]
          : ['–', '–', '–', '–', '–', '–', 'failed']),
        row.note,
      ]),
    ),
  ];
  for (const row of rows) {
    if (!('figures' in row)) lines.push(`- ${row.name} could not run: ${row.failure}`);
    else if (count(row.figures) > 0) {
      const statuses = Object.entries(row.figures.unexpected).map(([status, n]) => `${status} ×${n}`);
      lines.push(
        `- ${row.name}: expected ${row.expected}, got ${statuses.join(', ')}${row.figures.firstError ? ` (${row.figures.firstError})` : ''}`,
      );
    }
  }
  return lines.join('\n');
}

/** Resident memory of the server process at the moments named. */
export function memoryTable(moments: [string, ProcessMemory][]): string {
  return table(
    ['Server process', 'VmRSS', 'of which file-backed', 'VmHWM (peak so far)'],
    moments.map(([moment, memory]) => [moment, mib(memory.rssMiB), mib(memory.fileMiB), mib(memory.peakMiB)]),
  );
}

/**
 * The same request types measured on two runtimes, side by side: requests/s, share of that
 * runtime's own ceiling, and p99, then the ratio of the first's requests/s to the second's.
 */
export function comparisonTable(runs: [ComparedRun, ComparedRun]): string {
  const [a, b] = runs;
  const cells = (row: Row | undefined, ceiling: Figures) =>
    row && 'figures' in row
      ? [
          row.figures.perSecond.toFixed(0),
          row.probe ? '–' : percent((100 * row.figures.perSecond) / ceiling.perSecond),
          ms(row.figures.p99),
          String(count(row.figures)),
        ]
      : ['–', '–', '–', 'failed'];
  const ratio = (x: Row | undefined, y: Row | undefined) =>
    x && y && 'figures' in x && 'figures' in y && count(x.figures) + count(y.figures) === 0
      ? `${(x.figures.perSecond / y.figures.perSecond).toFixed(2)}×`
      : '–';
  const ceilingRow = ['ceiling (bare Hono)', a.ceiling.perSecond.toFixed(0), '100 %', ms(a.ceiling.p99), '–'];
  return table(
    [
      'Request',
      `${a.label} req/s`,
      'of its ceiling',
      'p99 ms',
      'errors',
      `${b.label} req/s`,
      'of its ceiling',
      'p99 ms',
      'errors',
      `${a.label} ÷ ${b.label}`,
    ],
    [
      [
        ...ceilingRow,
        b.ceiling.perSecond.toFixed(0),
        '100 %',
        ms(b.ceiling.p99),
        '–',
        `${(a.ceiling.perSecond / b.ceiling.perSecond).toFixed(2)}×`,
      ],
      ...a.rows.map((row, index) => {
        const other = b.rows[index];
        return [
          `\`${row.name}\`${row.probe ? ' (probe)' : ''}`,
          ...cells(row, a.ceiling),
          ...cells(other, b.ceiling),
          ratio(row, other),
        ];
      }),
    ],
  );
}

/**
 * The same request types measured on several set-ups of one server (direct, through a pooler),
 * side by side: requests/s and p99 of each, and each later one's requests/s as a share of the
 * first's. The ceiling row shows each set-up's own ceiling, measured in the same run.
 */
export function againstFirstTable(runs: ComparedRun[]): string {
  const [first, ...others] = runs;
  if (!first) return '';
  const cells = (row: Row | undefined) => {
    const measured = cleanFigures(row);
    return measured ? [measured.perSecond.toFixed(0), ms(measured.p99)] : ['–', row ? 'errors' : '–'];
  };
  const share = (row: Row | undefined, base: Row | undefined) => {
    const [x, y] = [cleanFigures(row), cleanFigures(base)];
    return x && y ? percent((100 * x.perSecond) / y.perSecond) : '–';
  };
  return table(
    [
      'Request',
      `${first.label} req/s`,
      'p99 ms',
      ...others.flatMap(({ label }) => [`${label} req/s`, 'p99 ms', `of ${first.label}`]),
    ],
    [
      [
        'ceiling (bare Hono)',
        first.ceiling.perSecond.toFixed(0),
        ms(first.ceiling.p99),
        ...others.flatMap(({ ceiling }) => [
          ceiling.perSecond.toFixed(0),
          ms(ceiling.p99),
          percent((100 * ceiling.perSecond) / first.ceiling.perSecond),
        ]),
      ],
      ...first.rows.map((row, index) => [
        `\`${row.name}\`${row.probe ? ' (probe)' : ''}`,
        ...cells(row),
        ...others.flatMap((other) => [...cells(other.rows[index]), share(other.rows[index], row)]),
      ]),
    ],
  );
}

/** One runtime's measurements, for comparisonTable. */
export interface ComparedRun {
  label: string;
  ceiling: Figures;
  rows: Row[];
}
