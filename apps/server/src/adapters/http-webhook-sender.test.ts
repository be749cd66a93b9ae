import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebhookSendError } from '@uas/domain';
import { Webhook } from 'standardwebhooks';
import { afterEach, describe, expect, it } from 'vitest';
import { HttpWebhookSender, retryAfterSeconds } from './http-webhook-sender';

const SECRET = `whsec_${Buffer.from('a-secret-of-32-bytes-for-testing').toString('base64')}`;
const OLD_SECRET = `whsec_${Buffer.from('the-previous-secret-32-bytes-ok!').toString('base64')}`;

interface Received {
  headers: Record<string, string>;
  body: string;
}

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

/** A receiver on loopback answering `answer`, recording every request it gets. */
async function receiver(answer: (response: import('node:http').ServerResponse) => void = (res) => res.end('ok')) {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      received.push({ headers: req.headers as Record<string, string>, body });
      answer(res);
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as AddressInfo).port, received };
}

const request = (url: string) => ({
  url,
  id: 'msg_test',
  timestamp: new Date(),
  body: JSON.stringify({ type: 'webhook.test', timestamp: new Date().toISOString(), data: {} }),
  secrets: [SECRET],
});

describe('HttpWebhookSender', () => {
  it('signs to the Standard Webhooks specification: the package verifies it, under the current and the previous secret', async () => {
    const { port, received } = await receiver();
    const sender = new HttpWebhookSender({ allowHttp: true, allowPrivateAddresses: true });
    const sent = { ...request(`http://127.0.0.1:${port}/hook`), secrets: [SECRET, OLD_SECRET] };
    expect(await sender.send(sent)).toEqual({ status: 200, retryAfterSeconds: null });
    sender.close();
    const [{ headers, body }] = received as [Received];
    expect(headers['webhook-id']).toBe('msg_test');
    expect(headers['webhook-signature']).toMatch(/^v1,\S+ v1,\S+$/);
    expect(new Webhook(SECRET).verify(body, headers)).toEqual(JSON.parse(sent.body));
    expect(new Webhook(OLD_SECRET).verify(body, headers)).toEqual(JSON.parse(sent.body));
    expect(() =>
      new Webhook(`whsec_${Buffer.from('x'.repeat(32)).toString('base64')}`).verify(body, headers),
    ).toThrow();
  });

  it.each([
    '127.0.0.1',
    '[::1]',
    '169.254.169.254',
    '10.0.0.1',
    '[::ffff:127.0.0.1]',
    '[64:ff9b::7f00:1]',
    '192.0.2.2',
    '198.18.0.1',
    'localhost',
  ])(
    'refuses %s at connect time, unless the operator allows private addresses: nothing is sent, and the log names no address',
    async (host) => {
      const { port, received } = await receiver();
      const sender = new HttpWebhookSender({ allowHttp: true, allowPrivateAddresses: false, timeoutMs: 2_000 });
      const error = await sender.send(request(`http://${host}:${port}/hook`)).catch((caught: unknown) => caught);
      sender.close();
      expect(error).toBeInstanceOf(WebhookSendError);
      expect((error as Error).message).toMatch(/^address not allowed .*WEBHOOK_ALLOW_PRIVATE_ADDRESSES/);
      expect((error as Error).message).not.toMatch(/127|::1|localhost|loopback/);
      // A literal cannot change: no retry. A name may resolve elsewhere later.
      expect((error as WebhookSendError).permanent).toBe(host !== 'localhost');
      expect(received).toEqual([]);
    },
  );

  it('refuses an http URL unless WEBHOOK_ALLOW_HTTP is set now (it may have been when the endpoint was registered): nothing is sent, no retry', async () => {
    const { port, received } = await receiver();
    const sender = new HttpWebhookSender({ allowHttp: false, allowPrivateAddresses: true });
    const error = await sender.send(request(`http://127.0.0.1:${port}/hook`)).catch((caught: unknown) => caught);
    sender.close();
    expect(error).toBeInstanceOf(WebhookSendError);
    expect(error).toMatchObject({ message: 'http not allowed (set WEBHOOK_ALLOW_HTTP=true)', permanent: true });
    expect(received).toEqual([]);
  });

  it('records a refused connection as a generic reason, without the address node names', async () => {
    const { port } = await receiver();
    await new Promise((resolve) => servers.pop()!.close(resolve)); // nothing listens there now
    const sender = new HttpWebhookSender({ allowHttp: true, allowPrivateAddresses: true });
    await expect(sender.send(request(`http://127.0.0.1:${port}/hook`))).rejects.toThrow(/^connection refused$/);
    sender.close();
  });

  it('does not follow a redirect (to loopback): the answer is the 3xx, and its target receives nothing', async () => {
    const target = await receiver();
    const redirecting = await receiver((res) => {
      res.writeHead(302, { location: `http://127.0.0.1:${target.port}/internal` });
      res.end();
    });
    const sender = new HttpWebhookSender({ allowHttp: true, allowPrivateAddresses: true });
    expect(await sender.send(request(`http://127.0.0.1:${redirecting.port}/hook`))).toMatchObject({ status: 302 });
    sender.close();
    expect(target.received).toEqual([]);
  });

  it('gives up after its timeout', async () => {
    const { port } = await receiver(() => {}); // never answers
    const sender = new HttpWebhookSender({ allowHttp: true, allowPrivateAddresses: true, timeoutMs: 200 });
    await expect(sender.send(request(`http://127.0.0.1:${port}/hook`))).rejects.toThrow('no answer within 0.2 s');
    sender.close();
  });

  it('reads Retry-After in seconds or as an HTTP date', () => {
    const now = new Date('2026-11-21T10:00:00Z');
    expect(retryAfterSeconds('120', now)).toBe(120);
    expect(retryAfterSeconds('Sat, 21 Nov 2026 10:01:00 GMT', now)).toBe(60);
    expect(retryAfterSeconds('soon', now)).toBeNull();
    expect(retryAfterSeconds(undefined, now)).toBeNull();
  });
});
