import type { Initiator } from '../audit/audit-event.ts';
import { auditRecord } from '../audit/audit-records.ts';
import type { Clock } from '../shared/clock.ts';
import { NotFoundError } from '../shared/errors.ts';
import type { IdGenerator } from '../shared/id-generator.ts';
import { testDeliveryId, testPayload } from './delivery-payload.ts';
import type { WebhookDeliveryPage, WebhookDeliveryRepository } from './webhook-delivery.repository.ts';
import { deliveriesOf } from './webhook-dispatcher.ts';
import type { WebhookRepository } from './webhook.repository.ts';

export interface WebhookDeliveryServiceDeps {
  webhooks: WebhookRepository;
  deliveries: WebhookDeliveryRepository;
  clock: Clock;
  ids: IdGenerator;
}

/** An admin's view of an endpoint's deliveries, and what an admin may ask of them: replays, a test event. */
export class WebhookDeliveryService {
  constructor(private readonly deps: WebhookDeliveryServiceDeps) {}

  async list(webhookId: string, query: { page: number; size: number }): Promise<WebhookDeliveryPage> {
    await this.endpoint(webhookId);
    return this.deps.deliveries.list(webhookId, query);
  }

  /** Sends delivery `deliveryId` again, under its own id (a receiver that kept it sees the same event). */
  async replay(by: Initiator, webhookId: string, deliveryId: string): Promise<void> {
    await this.endpoint(webhookId);
    const now = this.deps.clock.now();
    if (!(await this.deps.deliveries.replay(webhookId, deliveryId, now, this.replayed(by, webhookId, now)))) {
      throw new NotFoundError('webhook delivery');
    }
  }

  /** Sends again every event from place `since` on that the endpoint subscribes to. Answers how many were queued. */
  async replaySince(by: Initiator, webhookId: string, since: number): Promise<number> {
    await this.endpoint(webhookId);
    const now = this.deps.clock.now();
    return this.deps.deliveries.replaySince(webhookId, since, now, deliveriesOf, this.replayed(by, webhookId, now));
  }

  /** Queues a `webhook.test` event to the endpoint, under an id of its own. */
  async sendTest(webhookId: string): Promise<string> {
    await this.endpoint(webhookId);
    const now = this.deps.clock.now();
    const id = testDeliveryId(this.deps.ids.next());
    await this.deps.deliveries.enqueue({
      id,
      webhookId,
      seq: null,
      eventType: 'webhook.test',
      payload: testPayload(now),
      created: now,
    });
    return id;
  }

  private async endpoint(id: string) {
    const webhook = await this.deps.webhooks.get(id);
    if (!webhook) throw new NotFoundError('webhook');
    return webhook;
  }

  private replayed(by: Initiator, webhookId: string, now: Date) {
    return auditRecord(this.deps.ids.next(), now, by, 'webhook.replayed', { type: 'webhooks', id: webhookId });
  }
}
