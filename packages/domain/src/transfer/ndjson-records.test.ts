import { describe, expect, it } from '../testing/test-api.ts';
import { NDJSON_MAX_LINE_CHARS, readNdjson } from './ndjson-records.ts';

async function read(chunks: (string | Uint8Array)[]) {
  const sources = [];
  for await (const source of readNdjson(
    (async function* () {
      yield* chunks;
    })(),
  ))
    sources.push(source);
  return sources;
}

describe('readNdjson', () => {
  it('numbers records by their line, across chunk boundaries, skipping blank lines and CRs', async () => {
    expect(await read(['{"a":', '1}\r\n\n{"b":2}\n', '{"c":3}'])).toEqual([
      { line: 1, value: { a: 1 } },
      { line: 3, value: { b: 2 } },
      { line: 4, value: { c: 3 } },
    ]);
  });

  it('decodes UTF-8 split inside a character', async () => {
    const bytes = new TextEncoder().encode('{"name":"żółw 🐢"}\n');
    expect(await read([bytes.slice(0, 11), bytes.slice(11)])).toEqual([{ line: 1, value: { name: 'żółw 🐢' } }]);
  });

  it('reports a line that is not JSON, and one too long to be a record, and reads on', async () => {
    const long = `{"x":"${'y'.repeat(NDJSON_MAX_LINE_CHARS)}"}`;
    expect(await read(['{oops}\n', long.slice(0, 40_000), long.slice(40_000), '\n{"ok":1}\n'])).toEqual([
      { line: 1, unreadable: 'is not valid JSON' },
      { line: 2, unreadable: `is longer than ${NDJSON_MAX_LINE_CHARS} characters` },
      { line: 3, value: { ok: 1 } },
    ]);
  });
});
