import { expect } from 'vitest';
import type { AdminClient } from '../support/admin-client';
import { mailedToken } from '../support/outbox';

export const ADMINS = '/v1/admin/admins';
export const ADMIN_PASSWORD = 'invited-admin-password-1';

export interface AdminResource {
  type: 'admins';
  id: string;
  attributes: { email: string; name: string; role: string; created: string; updated: string };
}

export const invitationDocument = (email: string, role: string, name?: string) => ({
  data: { type: 'admins', attributes: { email, role, ...(name === undefined ? {} : { name }) } },
});
export const roleDocument = (id: string, role: string) => ({ data: { type: 'admins', id, attributes: { role } } });

/** Invites `email` with `role` as `client`'s owner: the mailed token. */
export async function invite(client: AdminClient, email: string, role: string): Promise<string> {
  const response = await client.send('POST', ADMINS, invitationDocument(email, role), await client.adminToken());
  expect(response.status, await response.clone().text()).toBe(201);
  return mailedToken(client, 'admin_invitation', email);
}

/** Invites `email` with `role` and accepts through the API: the new admin. */
export async function joined(client: AdminClient, email: string, role: string): Promise<AdminResource> {
  const token = await invite(client, email, role);
  const response = await client.send('POST', `${ADMINS}/accept`, { token, password: ADMIN_PASSWORD });
  expect(response.status, await response.clone().text()).toBe(201);
  return ((await response.json()) as { data: AdminResource }).data;
}
