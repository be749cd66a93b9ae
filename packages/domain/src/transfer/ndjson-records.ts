import type { ImportSource } from './user-transfer-service.ts';

/** Longest line an NDJSON import reads: a record at the size limits fits with room to spare. */
export const NDJSON_MAX_LINE_CHARS = 64 * 1024;

/**
 * The records of newline-delimited JSON arriving in chunks, each with its 1-based line number.
 * Blank lines are skipped; a line that is not JSON, or too long to be a record, is unreadable (a
 * long line is dropped as it streams, never held whole).
 */
export async function* readNdjson(chunks: AsyncIterable<Uint8Array | string>): AsyncGenerator<ImportSource> {
  const decoder = new TextDecoder('utf-8', { fatal: false, ignoreBOM: false });
  let pending = '';
  let overlong = false;
  let line = 0;
  const finish = (text: string): ImportSource | null => {
    line += 1;
    if (overlong) {
      overlong = false;
      return { line, unreadable: `is longer than ${NDJSON_MAX_LINE_CHARS} characters` };
    }
    const trimmed = text.trim();
    if (trimmed === '') return null;
    try {
      return { line, value: JSON.parse(trimmed) as unknown };
    } catch {
      return { line, unreadable: 'is not valid JSON' };
    }
  };
  const take = function* (text: string): Generator<ImportSource> {
    let start = 0;
    for (let end = text.indexOf('\n'); end !== -1; end = text.indexOf('\n', start)) {
      const source = finish(pending + text.slice(start, end));
      pending = '';
      if (source) yield source;
      start = end + 1;
    }
    pending += text.slice(start);
    if (pending.length > NDJSON_MAX_LINE_CHARS) {
      overlong = true;
      pending = '';
    }
  };
  for await (const chunk of chunks)
    yield* take(typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true }));
  yield* take(decoder.decode());
  if (pending !== '' || overlong) {
    const source = finish(pending);
    if (source) yield source;
  }
}

/** One user record as an NDJSON line. */
export const ndjsonLine = (record: object): string => `${JSON.stringify(record)}\n`;
