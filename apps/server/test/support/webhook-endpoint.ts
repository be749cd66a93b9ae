import { expect } from 'vitest';
import type { AdminClient } from './admin-client';
import type { WebhookReceiver } from './webhook-receiver';

/** Creates an endpoint for every event through the API; answers its id, the receiver trusting its secret. */
export async function createEndpoint(
  client: AdminClient,
  receiver: WebhookReceiver,
  url = receiver.url,
): Promise<string> {
  const token = await client.adminToken();
  const response = await client.send(
    'POST',
    '/v1/admin/webhooks',
    { data: { type: 'webhooks', attributes: { url, events: ['*'] } } },
    token,
  );
  expect(response.status, await response.clone().text()).toBe(201);
  const { data } = (await response.json()) as { data: { id: string; attributes: { secret: string } } };
  receiver.trust(data.attributes.secret);
  return data.id;
}
