import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { WebhookSendError, type WebhookRequest, type WebhookResponse, type WebhookSender } from '@uas/domain';
import { Webhook } from 'standardwebhooks';
import { ForbiddenAddressError, forbiddenAddressKind, guardedLookup } from './address-guard';
import { networkFailureReason } from './network-failures';

/** How long an attempt may take, connection to last byte of the answer. */
const WEBHOOK_TIMEOUT_MS = 10_000;

/** Connections kept open to one receiver: attempts to it run this many at once. */
const SOCKETS_PER_HOST = 32;

/** The setting that lets webhooks reach private addresses, named in each refusal. */
const ALLOW_PRIVATE = 'WEBHOOK_ALLOW_PRIVATE_ADDRESSES';

export interface HttpWebhookSenderOptions {
  /** WEBHOOK_ALLOW_PRIVATE_ADDRESSES: the operator's leave to reach loopback, private and link-local addresses. */
  allowPrivateAddresses: boolean;
  /** WEBHOOK_ALLOW_HTTP, as it is now: an endpoint registered while http was allowed gets nothing once it is not. */
  allowHttp: boolean;
  timeoutMs?: number;
}

/** Seconds a `Retry-After` asks for (seconds, or an HTTP date), or null. */
export function retryAfterSeconds(value: string | undefined, now: Date): number | null {
  if (value === undefined) return null;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, Math.ceil((date - now.getTime()) / 1000));
}

/**
 * POSTs a webhook with node's http(s) client: signed with the `standardwebhooks` package (one
 * `v1,` signature per secret), over keep-alive agents whose `lookup` refuses forbidden addresses
 * at connect time (an address literal in the URL is checked before, as it is never looked up).
 * A redirect is an answer like any other: not followed.
 */
export class HttpWebhookSender implements WebhookSender {
  private readonly agents;

  constructor(private readonly options: HttpWebhookSenderOptions) {
    const lookup = options.allowPrivateAddresses ? undefined : guardedLookup(ALLOW_PRIVATE);
    const shared = { keepAlive: true, maxSockets: SOCKETS_PER_HOST, lookup };
    this.agents = { http: new HttpAgent(shared), https: new HttpsAgent(shared) };
  }

  async send({ url, id, timestamp, body, secrets }: WebhookRequest): Promise<WebhookResponse> {
    const target = new URL(url);
    if (target.protocol === 'http:' && !this.options.allowHttp) {
      throw new WebhookSendError('http not allowed (set WEBHOOK_ALLOW_HTTP=true)', { permanent: true });
    }
    // An address literal is never looked up, so the agent's guard would not see it; and as it
    // cannot change, the delivery fails at once (a name is retried: it may resolve elsewhere later).
    if (!this.options.allowPrivateAddresses && forbiddenAddressKind(target.hostname) !== null) {
      throw new WebhookSendError(new ForbiddenAddressError(ALLOW_PRIVATE).message, { permanent: true });
    }
    const signature = secrets.map((secret) => new Webhook(secret).sign(id, timestamp, body)).join(' ');
    const headers = {
      'content-type': 'application/json',
      'content-length': Buffer.byteLength(body),
      'user-agent': 'user-account-service-webhooks',
      'webhook-id': id,
      'webhook-timestamp': String(Math.floor(timestamp.getTime() / 1000)),
      'webhook-signature': signature,
    };
    const https = target.protocol === 'https:';
    const timeoutMs = this.options.timeoutMs ?? WEBHOOK_TIMEOUT_MS;
    const response = await new Promise<IncomingMessage>((resolve, reject) => {
      const request = (https ? httpsRequest : httpRequest)(target, {
        method: 'POST',
        headers,
        agent: https ? this.agents.https : this.agents.http,
        signal: AbortSignal.timeout(timeoutMs),
      });
      request.on('response', resolve);
      request.on('error', reject);
      request.end(body);
    }).catch((error: Error & { code?: string }) => {
      throw new WebhookSendError(sendFailure(error, timeoutMs));
    });
    response.resume();
    return {
      status: response.statusCode ?? 0,
      retryAfterSeconds: retryAfterSeconds(response.headers['retry-after'] as string | undefined, new Date()),
    };
  }

  close(): void {
    this.agents.http.destroy();
    this.agents.https.destroy();
  }
}

/** What the log says of an attempt that got no answer. */
const sendFailure = (error: Error & { code?: string }, timeoutMs: number) =>
  networkFailureReason(error, timeoutMs) ?? 'could not reach the receiver';
