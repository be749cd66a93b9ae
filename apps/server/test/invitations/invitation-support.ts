import { Clock } from '@uas/domain';
import { bearer, jsonInit } from '@uas/adapters-http/testing';
import { JsonLogger } from '../../src/adapters/json-logger';
import { createApplication, type Application } from '../../src/application';
import { loadConfig } from '../../src/config';
import { systemContainer } from '../../src/container';
import type { TestApplication } from '../support/test-application';

/** One way to send a request: to one instance of the application, in process. */
export type Send = (path: string, init?: RequestInit) => Promise<Response>;

export const sendTo =
  (app: Application['app']): Send =>
  (path, init) =>
    Promise.resolve(app.request(path, init));

/**
 * A second instance of the application over the database of `t`: its own connections, caches and
 * container, the same clock, as a second process behind a load balancer would have.
 */
export async function secondInstance(t: TestApplication, logs: string[]): Promise<Application> {
  const config = loadConfig(t.env);
  const parent = systemContainer.createChildContainer();
  parent.register(Clock, { useValue: t.clock });
  return createApplication(config, new JsonLogger(config.logLevel, (line) => logs.push(line)), parent);
}

/** An admin who invites through the API and reads the links from the outbox, as a newcomer does. */
export class Inviter {
  constructor(
    private readonly send: Send,
    private readonly adminToken: string,
  ) {}

  /** The same admin, on another instance. */
  on(send: Send): Inviter {
    return new Inviter(send, this.adminToken);
  }

  /** Whether the invitation is among the pending ones (the first 100). */
  async isPending(id: string): Promise<boolean> {
    const list = await this.send('/v1/admin/invitations?page[size]=100', { headers: bearer(this.adminToken) });
    return ((await list.json()) as { data: { id: string }[] }).data.some((invitation) => invitation.id === id);
  }

  invite(email: string, name = ''): Promise<Response> {
    const document = { data: { type: 'invitations', attributes: { email, name } } };
    return this.send('/v1/admin/invitations', jsonInit('POST', document, bearer(this.adminToken)));
  }

  /** Invites `email` and answers the invitation's id and the token of its mailed link. */
  async invited(email: string): Promise<{ id: string; userId: string; token: string }> {
    const response = await this.invite(email);
    if (response.status !== 201) throw new Error(`invite answered ${response.status}: ${await response.text()}`);
    const { data } = (await response.json()) as { data: { id: string; attributes: { user_id: string } } };
    return { id: data.id, userId: data.attributes.user_id, token: await this.tokenMailedTo(email) };
  }

  /** The token of the newest link mailed to `email`, read through GET /v1/admin/mail/{id}. */
  async tokenMailedTo(email: string): Promise<string> {
    const list = await this.send('/v1/admin/mail?page[size]=100', { headers: bearer(this.adminToken) });
    const messages = ((await list.json()) as { data: { id: string; attributes: { recipient: string } }[] }).data;
    const newest = messages.find((message) => message.attributes.recipient === email);
    if (!newest) throw new Error(`no message to ${email}`);
    const read = await this.send(`/v1/admin/mail/${newest.id}`, { headers: bearer(this.adminToken) });
    const text = ((await read.json()) as { data: { attributes: { body: { text: string } } } }).data.attributes.body
      .text;
    const link = new URL(/https?:\S+/.exec(text)![0]);
    return link.searchParams.get('token')!;
  }

  revoke(id: string): Promise<Response> {
    return this.send(`/v1/admin/invitations/${id}`, { method: 'DELETE', headers: bearer(this.adminToken) });
  }

  resend(id: string): Promise<Response> {
    return this.send(`/v1/admin/invitations/${id}/resend`, { method: 'POST', headers: bearer(this.adminToken) });
  }

  user(id: string): Promise<Response> {
    return this.send(`/v1/admin/users/${id}`, { headers: bearer(this.adminToken) });
  }
}

export const accept = (send: Send, token: string, password: string) =>
  send('/v1/invitations/accept', jsonInit('POST', { token, password }));

export const userLogin = (send: Send, email: string, password: string) =>
  send('/v1/login', jsonInit('POST', { data: { type: 'users', attributes: { email, password } } }));
