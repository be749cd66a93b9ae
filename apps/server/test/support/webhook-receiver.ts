import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

/** A delivery the receiver took, its signature verified. */
export interface ReceivedWebhook {
  id: string;
  type: string;
  sequence: number | null;
  body: string;
  payload: { type: string; timestamp: string; data: Record<string, unknown> };
}

/**
 * A receiver on loopback, as an integrating team would write one: every request is verified with
 * the `standardwebhooks` package (under the secret it is given); a request that does not verify
 * is answered 400 and counted. It can go down (its port closed: connections refused) and come
 * back on the same port.
 */
export class WebhookReceiver {
  readonly received: ReceivedWebhook[] = [];
  /** Requests whose signature did not verify. */
  unverified = 0;
  private server: Server | undefined;
  private secret: Webhook | undefined;
  port = 0;

  /** Starts listening on a free port of 127.0.0.1. */
  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        try {
          const payload = this.secret!.verify(
            body,
            req.headers as Record<string, string>,
          ) as ReceivedWebhook['payload'];
          this.received.push({
            id: String(req.headers['webhook-id']),
            type: payload.type,
            sequence: (payload.data.sequence as number | null) ?? null,
            body,
            payload,
          });
          res.writeHead(204).end();
        } catch {
          this.unverified += 1;
          res.writeHead(400).end();
        }
      });
    });
    this.server.keepAliveTimeout = 60_000;
    await new Promise<void>((resolve) => this.server!.listen(this.port, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
    return this;
  }

  /** The secret deliveries are verified with (the `whsec_…` the API answered). */
  trust(secret: string): void {
    this.secret = new Webhook(secret);
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}/hooks`;
  }

  /** Stops listening and drops its connections: the service's attempts are refused meanwhile. */
  async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (!server) return;
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }

  /** How many times each `webhook-id` was received. */
  countsById(): Map<string, number> {
    const counts = new Map<string, number>();
    for (const { id } of this.received) counts.set(id, (counts.get(id) ?? 0) + 1);
    return counts;
  }

  /** Deliveries received more than once (by `webhook-id`): each extra one counts. */
  duplicates(): number {
    return this.received.length - this.countsById().size;
  }
}
