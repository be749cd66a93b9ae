import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { extname } from 'node:path';
import { parse as parseCsv } from 'csv-parse';
import { readNdjson, type ImportSource } from '@uas/domain';
import { CliExit, EXIT } from './exit-codes';

export const IMPORT_FORMATS = ['ndjson', 'json', 'csv'] as const;
export type ImportFormat = (typeof IMPORT_FORMATS)[number];

/** An opened input: its records, and how much of it has been read (for the progress bar). */
export interface ImportInput {
  format: ImportFormat;
  records: AsyncIterable<ImportSource>;
  /** Share of the input read so far, when its size is known (a file, not a pipe). */
  fraction(): number | undefined;
}

/**
 * `.ndjson`/`.jsonl` → NDJSON, `.csv` → CSV; otherwise (stdin, `.json`, anything else) the first
 * character decides: `[` a JSON array, `{` NDJSON, anything else CSV.
 */
function detectFormat(path: string, head: string): ImportFormat {
  const extension = extname(path).toLowerCase();
  if (extension === '.ndjson' || extension === '.jsonl') return 'ndjson';
  if (extension === '.csv') return 'csv';
  const first = head.trimStart()[0];
  return first === '[' ? 'json' : first === '{' ? 'ndjson' : 'csv';
}

/** The chunks of a stream, with a first chunk already taken off put back in front; counts what it yields. */
async function* withHead(
  head: Buffer | undefined,
  rest: AsyncIterator<Buffer>,
  read: (bytes: number) => void,
): AsyncGenerator<Buffer> {
  if (head) yield head;
  for (let next = await rest.next(); !next.done; next = await rest.next()) {
    read(next.value.length);
    yield next.value;
  }
}

export async function openImportInput(path: string, format: ImportFormat | undefined): Promise<ImportInput> {
  const stdin = path === '-';
  let size: number | undefined;
  if (!stdin) {
    const file = await stat(path).catch((error: NodeJS.ErrnoException) => {
      throw new CliExit(EXIT.failed, `Cannot read ${path}: ${error.code ?? error.message}`);
    });
    size = file.size;
  }
  const stream = stdin ? process.stdin : createReadStream(path);
  // Bytes are counted as the reader pulls them: a 'data' listener would make the stream flow
  // and read the whole file into memory ahead of the import.
  const iterator = stream[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  const first = await iterator.next();
  const head = first.done ? undefined : first.value;
  let read = head?.length ?? 0;
  const chosen = format ?? detectFormat(path, head?.subarray(0, 64).toString('utf8') ?? '');
  const chunks = withHead(head, iterator, (bytes) => (read += bytes));
  const records =
    chosen === 'ndjson' ? readNdjson(chunks) : chosen === 'json' ? readJsonArray(chunks) : readCsv(chunks);
  return { format: chosen, records, fraction: () => (size ? read / size : undefined) };
}

/**
 * A JSON array is parsed whole (NDJSON is the format for inputs too large for memory); each
 * record's "line" is its position in the array.
 */
async function* readJsonArray(chunks: AsyncIterable<Buffer>): AsyncGenerator<ImportSource> {
  const parts: Buffer[] = [];
  for await (const chunk of chunks) parts.push(chunk);
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.concat(parts).toString('utf8'));
  } catch {
    throw new CliExit(
      EXIT.failed,
      'The input is not valid JSON; use NDJSON (one record per line) to have bad lines reported one by one.',
    );
  }
  if (!Array.isArray(parsed)) throw new CliExit(EXIT.failed, 'A JSON input must be an array of user records.');
  for (const [index, value] of parsed.entries()) yield { line: index + 1, value };
}

/**
 * Cells of these columns hold JSON; `active` a number; `email_verified` `true`, `false` or a time;
 * an empty cell is an absent attribute.
 */
const JSON_COLUMNS = new Set(['metadata', 'app']);

function csvRecord(row: Record<string, string>): { value: Record<string, unknown> } | { unreadable: string } {
  const value: Record<string, unknown> = {};
  for (const [column, cell] of Object.entries(row)) {
    if (cell === '') continue;
    if (JSON_COLUMNS.has(column)) {
      try {
        value[column] = JSON.parse(cell);
      } catch {
        return { unreadable: `${column} is not valid JSON` };
      }
    } else if (column === 'active') {
      value[column] = /^\d+$/.test(cell) ? Number(cell) : cell;
    } else if (column === 'email_verified' && (cell === 'true' || cell === 'false')) {
      value[column] = cell === 'true';
    } else {
      value[column] = cell;
    }
  }
  return { value };
}

/** CSV with a header row naming the columns (the attributes of an export, in any order). */
async function* readCsv(chunks: AsyncIterable<Buffer>): AsyncGenerator<ImportSource> {
  const skipped: ImportSource[] = [];
  const parser = parseCsv({
    columns: true,
    bom: true,
    info: true,
    skip_empty_lines: true,
    skip_records_with_error: true,
    on_skip: (error) =>
      void skipped.push({
        line: Number((error as { lines?: number } | undefined)?.lines ?? 0),
        unreadable: `is not a well-formed CSV row (${error?.code ?? 'error'})`,
      }),
  });
  void (async () => {
    try {
      for await (const chunk of chunks)
        if (!parser.write(chunk)) await new Promise((resolve) => parser.once('drain', resolve));
      parser.end();
    } catch (error) {
      parser.destroy(error as Error);
    }
  })();
  for await (const { record, info } of parser as AsyncIterable<{
    record: Record<string, string>;
    info: { lines: number };
  }>) {
    yield* skipped.splice(0);
    yield { line: info.lines, ...csvRecord(record) };
  }
  yield* skipped.splice(0);
}
