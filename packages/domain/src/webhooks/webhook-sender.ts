import { token } from '../shared/token.ts';

/** One attempt to send: the signed POST of `body` to `url`. */
export interface WebhookRequest {
  readonly url: string;
  /** The `webhook-id` header. */
  readonly id: string;
  /** The `webhook-timestamp` header's instant. */
  readonly timestamp: Date;
  readonly body: string;
  /** The signing secrets (`whsec_…`): each adds a signature to `webhook-signature`. */
  readonly secrets: readonly string[];
}

/** What the receiver answered. */
export interface WebhookResponse {
  readonly status: number;
  /** Its `Retry-After`, in seconds, when it gave one. */
  readonly retryAfterSeconds: number | null;
}

/**
 * Sends a webhook (Standard Webhooks headers and signature), without following a redirect, within
 * a timeout, to an address the SSRF guard allows. Throws WebhookSendError when no answer came.
 */
export interface WebhookSender {
  send(request: WebhookRequest): Promise<WebhookResponse>;
}
export const WebhookSender = token<WebhookSender>('WebhookSender');

/**
 * No answer: refused by the SSRF guard, unreachable, timed out. Its message is what the log
 * shows. `permanent` when waiting cannot help (an address literal or a scheme the operator
 * refuses): the delivery fails at once instead of being retried.
 */
export class WebhookSendError extends Error {
  override readonly name = 'WebhookSendError';
  readonly permanent: boolean;
  constructor(message: string, { permanent = false }: { permanent?: boolean } = {}) {
    super(message);
    this.permanent = permanent;
  }
}
