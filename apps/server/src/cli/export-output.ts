import { open } from 'node:fs/promises';
import { once } from 'node:events';
import type { Writable } from 'node:stream';
import { ndjsonLine, toTransferRecord, TRANSFER_FIELDS, type TransferRecord, type User } from '@uas/domain';

const WRITE_CHUNK_CHARS = 64 * 1024;

export const EXPORT_FORMATS = ['ndjson', 'csv'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** The columns of a CSV export: every attribute an import reads back, but `password`. */
const csvColumns = (withPasswordHashes: boolean) =>
  TRANSFER_FIELDS.filter((field) => field !== 'password' && (withPasswordHashes || field !== 'password_hash'));

function csvCell(value: unknown): string {
  const text = typeof value === 'object' ? JSON.stringify(value) : String(value ?? '');
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/**
 * A file only its owner may read, emptied: `mode` applies only to a file it creates, so one that
 * was there (an earlier export, world-readable) is narrowed before anything is written to it.
 */
async function ownerOnlyFile(path: string): Promise<Writable> {
  const file = await open(path, 'w', 0o600);
  await file.chmod(0o600);
  return file.createWriteStream();
}

/** Writes users in `format` to `output` (a path, or stdout for `-`), waiting whenever it is full. */
export async function writeExport(
  users: AsyncIterable<User>,
  options: { format: ExportFormat; withPasswordHashes: boolean; output: string; onUser?(count: number): void },
): Promise<number> {
  const stream: Writable = options.output === '-' ? process.stdout : await ownerOnlyFile(options.output);
  // Lines are gathered into chunks: a write per user would cost more than the user's query.
  let pending = '';
  const flush = async () => {
    const text = pending;
    pending = '';
    if (text && !stream.write(text)) await once(stream, 'drain');
  };
  const write = async (text: string) => {
    pending += text;
    if (pending.length >= WRITE_CHUNK_CHARS) await flush();
  };
  const columns = csvColumns(options.withPasswordHashes);
  const line = (record: TransferRecord) =>
    options.format === 'ndjson'
      ? ndjsonLine(record)
      : `${columns.map((column) => csvCell(record[column as keyof TransferRecord])).join(',')}\n`;
  if (options.format === 'csv') await write(`${columns.join(',')}\n`);
  let count = 0;
  for await (const user of users) {
    await write(line(toTransferRecord(user, options.withPasswordHashes)));
    count += 1;
    options.onUser?.(count);
  }
  await flush();
  if (stream !== process.stdout) {
    stream.end();
    await once(stream, 'finish');
  }
  return count;
}
