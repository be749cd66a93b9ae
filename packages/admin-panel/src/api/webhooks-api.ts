import { type AdminSession, type paths, unwrap } from '@uas/client';
import type { WebhookEventSelector } from '@uas/domain';

type Answer<P extends keyof paths, M extends 'get' | 'post' | 'patch', S extends number> =
  NonNullable<paths[P][M]> extends {
    responses: { [K in S]: { content: { 'application/json': infer Body } } };
  }
    ? Body
    : never;

/** A webhook endpoint as the API shows it (never its secret). */
export type WebhookResource = Answer<'/v1/admin/webhooks/{id}', 'get', 200>['data'];
/** An endpoint just created or given a new secret: the only answers that carry the secret. */
export type WebhookWithSecret = Answer<'/v1/admin/webhooks', 'post', 201>['data'];
/** A page of an endpoint's deliveries, newest first. */
export type DeliveryPage = Answer<'/v1/admin/webhooks/{id}/deliveries', 'get', 200>;
export type DeliveryResource = DeliveryPage['data'][number];

/** What an owner fills in for an endpoint; `events` `["*"]` asks for every event. */
export type WebhookInput = {
  url: string;
  events: WebhookEventSelector[];
  description: string;
};

/** The admin API's webhook endpoints (owners only), their deliveries and replays. */
export class WebhooksApi {
  constructor(private readonly session: AdminSession) {}

  async list(signal?: AbortSignal): Promise<WebhookResource[]> {
    return (await unwrap(this.session.api.GET('/v1/admin/webhooks', { signal }))).data.data;
  }

  async get(id: string, signal?: AbortSignal): Promise<WebhookResource> {
    return (await unwrap(this.session.api.GET('/v1/admin/webhooks/{id}', { params: { path: { id } }, signal }))).data
      .data;
  }

  /** Creates an endpoint, enabled; the answer carries its secret, shown this once. */
  async create(attributes: WebhookInput): Promise<WebhookWithSecret> {
    const body = { data: { type: 'webhooks' as const, attributes } };
    return (await unwrap(this.session.api.POST('/v1/admin/webhooks', { body }))).data.data;
  }

  async update(id: string, attributes: Partial<WebhookInput> & { enabled?: boolean }): Promise<WebhookResource> {
    const body = { data: { type: 'webhooks' as const, id, attributes } };
    const call = this.session.api.PATCH('/v1/admin/webhooks/{id}', { params: { path: { id } }, body });
    return (await unwrap(call)).data.data;
  }

  async remove(id: string): Promise<void> {
    await unwrap(this.session.api.DELETE('/v1/admin/webhooks/{id}', { params: { path: { id } } }));
  }

  /** A new secret signs from now on; the old one signs beside it for 24 hours. */
  async rotateSecret(id: string): Promise<WebhookWithSecret> {
    const call = this.session.api.POST('/v1/admin/webhooks/{id}/secret', { params: { path: { id } } });
    return (await unwrap(call)).data.data;
  }

  async deliveries(id: string, page: number, signal?: AbortSignal): Promise<DeliveryPage> {
    const query = { 'page[number]': page };
    const call = this.session.api.GET('/v1/admin/webhooks/{id}/deliveries', {
      params: { path: { id }, query },
      signal,
    });
    return (await unwrap(call)).data;
  }

  /** Queues a `webhook.test` event for the endpoint. */
  async sendTest(id: string): Promise<void> {
    await unwrap(this.session.api.POST('/v1/admin/webhooks/{id}/test', { params: { path: { id } } }));
  }

  /** Sends one delivery again, with its own body. */
  async replayDelivery(id: string, deliveryId: string): Promise<void> {
    const call = this.session.api.POST('/v1/admin/webhooks/{id}/deliveries/{deliveryId}/replay', {
      params: { path: { id, deliveryId } },
    });
    await unwrap(call);
  }

  /** Queues every event from number `since` on again; answers how many were queued. */
  async replaySince(id: string, since: number): Promise<number> {
    const call = this.session.api.POST('/v1/admin/webhooks/{id}/replay', {
      params: { path: { id } },
      body: { since },
    });
    return (await unwrap(call)).data.meta.queued;
  }
}
