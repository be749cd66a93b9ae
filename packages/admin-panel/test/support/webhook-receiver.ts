import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

/** A delivery as the receiver got it, its signature checked against the secret it was given. */
export interface Received {
  id: string;
  type: string;
  data: Record<string, unknown>;
  /** Whether the signature verified with the receiver's secret at the time it arrived. */
  verified: boolean;
}

/**
 * An integrating team's receiver on loopback: it answers every POST with `status` (204 unless
 * told) and keeps what came, each delivery verified with the `standardwebhooks` package against
 * the secret the panel showed.
 */
export class WebhookReceiver {
  readonly received: Received[] = [];
  status = 204;
  secret = '';

  private constructor(private readonly server: ReturnType<typeof createServer>) {}

  static async start(): Promise<WebhookReceiver> {
    const server = createServer();
    const receiver = new WebhookReceiver(server);
    server.on('request', (request, response) => {
      let body = '';
      request.setEncoding('utf8');
      request.on('data', (chunk: string) => (body += chunk));
      request.on('end', () => {
        receiver.keep(body, request.headers);
        response.statusCode = receiver.status;
        response.end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return receiver;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** The deliveries of one event type, in the order they came. */
  of(type: string): Received[] {
    return this.received.filter((delivery) => delivery.type === type);
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private keep(body: string, headers: IncomingHttpHeaders): void {
    const id = String(headers['webhook-id'] ?? '');
    let verified = false;
    try {
      new Webhook(this.secret).verify(body, headers as Record<string, string>);
      verified = true;
    } catch {
      // Kept unverified: the test says which delivery failed its signature.
    }
    const parsed = JSON.parse(body) as { type: string; data: Record<string, unknown> };
    this.received.push({ id, type: parsed.type, data: parsed.data, verified });
  }
}
