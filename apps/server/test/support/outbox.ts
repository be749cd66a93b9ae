import { expect } from 'vitest';
import type { MailKind } from '@uas/domain';
import type { AdminClient } from './admin-client';

interface ListedMessage {
  id: string;
  attributes: { kind: string; recipient: string };
}

/**
 * The ids of the messages of `kind` to `recipient` in the outbox, newest first (GET /v1/admin/mail,
 * every page). A set: messages queued while the pages are read push older ones onto the next page,
 * where one read already is met again.
 */
export async function outboxIds(client: AdminClient, kind: MailKind, recipient: string): Promise<string[]> {
  const ids = new Set<string>();
  for (let page = 1; ; page += 1) {
    const response = await client.get(`/v1/admin/mail?page[number]=${page}&page[size]=100`, await client.adminToken());
    expect(response.status).toBe(200);
    const { data } = (await response.json()) as { data: ListedMessage[] };
    for (const message of data) {
      if (message.attributes.kind === kind && message.attributes.recipient === recipient) ids.add(message.id);
    }
    if (data.length < 100) return [...ids];
  }
}

/**
 * The link of the newest message of `kind` to `recipient`, as an admin reads it in the outbox
 * (GET /v1/admin/mail/{id}), which is how a newcomer without a mail server follows it.
 */
export async function mailedLink(client: AdminClient, kind: MailKind, recipient: string): Promise<URL> {
  const [id] = await outboxIds(client, kind, recipient);
  expect(id, `a ${kind} message to ${recipient}`).toBeDefined();
  const response = await client.get(`/v1/admin/mail/${id}`, await client.adminToken());
  const { data } = (await response.json()) as { data: { attributes: { body: { text: string } | null } } };
  const link = /https?:\/\/\S+/.exec(data.attributes.body?.text ?? '')?.[0];
  expect(link, `the ${kind} message holds a link`).toBeDefined();
  return new URL(link!);
}

/** The token a mailed link carries. */
export const mailedToken = async (client: AdminClient, kind: MailKind, recipient: string): Promise<string> =>
  (await mailedLink(client, kind, recipient)).searchParams.get('token') ?? '';
