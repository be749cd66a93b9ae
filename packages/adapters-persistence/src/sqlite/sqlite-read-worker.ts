/**
 * A read worker's thread (see SqliteReadWorkers): its own read-only connection to the database
 * file, answering list queries one at a time.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { openSqliteConnection } from './sqlite-driver';
import { drizzle } from 'drizzle-orm/better-sqlite3';
import { SqliteUserList } from './sqlite-user-list';
import type { ReadReply, ReadRequest, ReadWorkerData } from './sqlite-read-workers';

const { path, busyTimeoutMs, mmapBytes } = workerData as ReadWorkerData;
const client = openSqliteConnection(path, { readonly: true, fileMustExist: true, timeout: busyTimeoutMs });
client.pragma(`mmap_size = ${mmapBytes}`);
const list = new SqliteUserList(drizzle(client));

parentPort!.on('message', ({ id, query }: ReadRequest) => {
  let reply: ReadReply;
  try {
    reply = { id, ...list.list(query)! };
  } catch (error) {
    // Only the driver's code travels: its message may quote the query and its values.
    const code = (error as { code?: unknown }).code;
    reply = { id, failure: typeof code === 'string' ? code : 'SQLITE_READ_WORKER' };
  }
  parentPort!.postMessage(reply);
});
