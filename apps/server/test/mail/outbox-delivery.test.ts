import { existsSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '@uas/adapters-persistence';
import { JsonLogger } from '../../src/adapters/json-logger';
import { createApplication, type Application } from '../../src/application';
import { loadConfig } from '../../src/config';
import { buildContainer, mailOf } from '../../src/container';
import { SMTP_PASSWORD, startTestSmtpServer, type TestSmtpServer } from '../support/smtp-test-server';
import { BACKENDS, testDatabaseEnv } from '../support/test-application';
import { eventually } from '../support/eventually';

/** Stands for the token of a verification link: it must never be stored or logged as plain text. */
const TOKEN = 'tok3n-6f1d0c2a9b8e7d6c5b4a';
const MESSAGES = 12;

/** Every byte of the SQLite file and its write-ahead log, as latin1 text to search. */
function sqliteBytes(path: string): string {
  return [path, `${path}-wal`]
    .filter((file) => existsSync(file))
    .map((file) => readFileSync(file).toString('latin1'))
    .join('');
}

describe.each(BACKENDS)('the outbox on %s', (backend) => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it('queues while the mail server is down, then two instances deliver every message exactly once when it is back; the token is never stored or logged in plain text', async () => {
    const smtp: TestSmtpServer = await startTestSmtpServer();
    cleanups.push(() => smtp.stop());
    await smtp.stop(); // down from the start; it comes back on the same port

    const dir = await mkdtemp(join(tmpdir(), 'uas-mail-'));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    const templates = join(dir, 'templates');
    await mkdir(templates);
    await writeFile(
      join(templates, 'test.txt'),
      `Hello {{recipient}}, open https://accounts.example.com/verify?token=${TOKEN}\n`,
    );
    const database = await testDatabaseEnv(backend, dir);
    cleanups.push(() => database.remove());
    const config = loadConfig({
      ...database.env,
      ADMIN_KEY_PATH: join(dir, 'admin.key'),
      BCRYPT_COST: '4',
      LOG_LEVEL: 'debug',
      SMTP_URL: smtp.url().href,
      MAIL_FROM: 'Accounts <no-reply@accounts.example.com>',
      MAIL_TEMPLATES_DIR: templates,
    });
    const logs: string[] = [];
    const start = async () => {
      const application: Application = await createApplication(
        config,
        new JsonLogger('debug', (line) => logs.push(line)),
      );
      cleanups.push(() => application.close());
    };
    await start();
    await start();

    // A third process queues the messages, as `uas mail test` does.
    const handle: Database = await openDatabase(config.database, { schema: config.databaseSchema });
    cleanups.push(() => handle.close());
    const { service } = mailOf(
      buildContainer(config, handle),
      config,
      new JsonLogger('debug', (line) => logs.push(line)),
    );
    const queued = new Set<string>();
    for (let n = 0; n < MESSAGES; n += 1) queued.add((await service.sendTest(`person${n}@example.com`)).id);
    expect((await service.read([...queued][0]!)).content?.text).toContain(TOKEN);
    const sqlite = config.database.dialect === 'sqlite' ? config.database.path : null;
    if (sqlite) expect(sqliteBytes(sqlite)).not.toContain(TOKEN);

    await eventually(() => logs.some((line) => line.includes('the mail server is unreachable')), 10_000);
    await smtp.start();
    await eventually(() => smtp.received.length >= MESSAGES, 45_000);
    // Long enough for a second delivery of anything to show.
    await new Promise((resolve) => setTimeout(resolve, 3_000));

    const deliveredIds = smtp.received.map((mail) => /^<([^@]+)@/.exec(mail.messageId ?? '')?.[1]);
    expect(deliveredIds.length - new Set(deliveredIds).size).toBe(0); // duplicates
    expect([...queued].filter((id) => !deliveredIds.includes(id))).toEqual([]); // losses
    expect(smtp.received[0]?.text).toContain(TOKEN);
    const { messages } = await service.list({ page: 1, size: 100 });
    expect(messages.map((message) => message.status)).toEqual(Array(MESSAGES).fill('delivered'));
    for (const id of queued) expect((await service.read(id)).content).toBeNull();

    if (sqlite) {
      const bytes = sqliteBytes(sqlite);
      expect(bytes).not.toContain(TOKEN);
      expect(bytes).not.toContain('accounts.example.com/verify');
    }
    const logged = logs.join('\n');
    expect(logged).toContain('"msg":"mail queued"');
    for (const secret of [TOKEN, 'accounts.example.com/verify', SMTP_PASSWORD, encodeURIComponent(SMTP_PASSWORD)]) {
      expect(logged).not.toContain(secret);
    }
  }, 90_000);
});
