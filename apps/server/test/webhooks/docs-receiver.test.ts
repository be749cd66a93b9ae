import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { HttpWebhookSender } from '../../src/adapters/http-webhook-sender';
import { delay, freePort } from '../../../../scripts/release-process';
import { eventually } from '../support/eventually';

const SECRET = `whsec_${Buffer.from('the-docs-receiver-secret-32bytes').toString('base64')}`;
const OTHER = `whsec_${Buffer.from('not-the-receiver-secret-32-bytes').toString('base64')}`;

/** The receiver a page shows under `heading`, as its reader would copy it. */
async function docsReceiver(page: string, heading: string): Promise<string> {
  const text = await readFile(new URL(`../../../../${page}`, import.meta.url), 'utf8');
  const section = text.slice(text.indexOf(heading));
  return /```js\n([\s\S]*?)```/.exec(section)![1]!;
}

describe('the receivers the docs show', () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it.each([
    ['docs/webhooks.md', '### Verifying a delivery', 1],
    ['README.md', '### Webhooks', 2],
  ] as const)(
    '%s (%s) verifies with standardwebhooks what the service sends, and refuses another signature',
    async (page, heading, processed) => {
      // Beside the server's sources, so its `standardwebhooks` import resolves as in a reader's project.
      const dir = await mkdtemp(join(new URL('../..', import.meta.url).pathname, '.docs-receiver-'));
      cleanups.push(() => rm(dir, { recursive: true, force: true }));
      await writeFile(join(dir, 'receiver.mjs'), await docsReceiver(page, heading));
      const port = await freePort();
      const child = spawn(process.execPath, [join(dir, 'receiver.mjs')], {
        env: { PATH: process.env.PATH ?? '', WEBHOOK_SECRET: SECRET, PORT: String(port) },
      });
      cleanups.push(async () => void child.kill('SIGKILL'));
      let stdout = '';
      child.stdout.on('data', (chunk) => (stdout += chunk));
      const sender = new HttpWebhookSender({ allowHttp: true, allowPrivateAddresses: true });
      cleanups.push(async () => sender.close());
      const body = JSON.stringify({
        type: 'user.created',
        timestamp: new Date().toISOString(),
        data: { sequence: 42, user: { id: 'u-1', version: 1 } },
      });
      const delivery = {
        url: `http://127.0.0.1:${port}/`,
        id: 'msg_docs',
        timestamp: new Date(),
        body,
        secrets: [SECRET],
      };
      let first = 0;
      await eventually(async () => {
        first = (await sender.send(delivery).catch(() => ({ status: 0 }))).status;
        return first !== 0;
      }, 10_000);
      expect(first).toBe(204);
      // A retry: answered; the docs' receiver processes each webhook-id once, the README's shorter one again.
      expect((await sender.send(delivery)).status).toBe(204);
      expect((await sender.send({ ...delivery, id: 'msg_forged', secrets: [OTHER] })).status).toBe(400);
      await delay(200);
      expect(stdout.trim().split('\n')).toEqual(Array(processed).fill("user.created 42 { id: 'u-1', version: 1 }"));
    },
  );
});
