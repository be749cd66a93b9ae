import type {
  ImportReportDocument,
  operations,
  SessionDocument,
  SessionListDocument,
  UserAttributes,
  UserDocument,
  UserListDocument,
  UserResource,
  UserWrite,
} from '@uas/client';
import type { PanelServer } from './panel-server';

const JSON_API = 'application/vnd.api+json';
type Listed<O extends keyof operations> = operations[O]['responses'] extends {
  200: { content: { 'application/json': infer Body } };
}
  ? Body
  : never;
type InvitationListDocument = Listed<'listInvitations'>;
type MailMessageListDocument = Listed<'listMailMessages'>;

/** Test set-up and checks straight through the admin API, beside the browser. */
export class AdminClient {
  private constructor(
    private readonly baseUrl: string,
    readonly adminId: string,
    private readonly token: string,
  ) {}

  /** Signs in as the key file's admin, or as `as` (another admin's email and password). */
  static async signIn(server: PanelServer, as = server.admin): Promise<AdminClient> {
    const response = await fetch(`${server.baseUrl}/v1/admin/login`, {
      method: 'POST',
      headers: { 'Content-Type': JSON_API },
      body: JSON.stringify({ data: { type: 'users', attributes: as } }),
    });
    if (response.status !== 200) throw new Error(`admin login failed: ${response.status} ${await response.text()}`);
    const { data } = (await response.json()) as SessionDocument;
    return new AdminClient(server.baseUrl, data.id, data.attributes.access_token);
  }

  async createUser(attributes: UserWrite): Promise<UserResource> {
    const response = await this.call('POST', '/v1/admin/users', { data: { type: 'users', attributes } });
    if (response.status !== 201) throw new Error(`create failed: ${response.status} ${await response.text()}`);
    return ((await response.json()) as UserDocument).data;
  }

  /** A change made by another admin, behind the browser's back. */
  async updateUser(id: string, attributes: UserWrite): Promise<void> {
    const response = await this.call('PATCH', `/v1/admin/users/${id}`, { data: { type: 'users', id, attributes } });
    if (response.status !== 200) throw new Error(`update failed: ${response.status} ${await response.text()}`);
  }

  /** The user's attributes, or null once it is gone. */
  async user(id: string): Promise<UserAttributes | null> {
    const response = await this.call('GET', `/v1/admin/users/${id}`);
    if (response.status === 404) return null;
    if (response.status !== 200) throw new Error(`get failed: ${response.status}`);
    return ((await response.json()) as UserDocument).data.attributes;
  }

  /** The users whose email contains `term` (first page). */
  async usersMatching(term: string): Promise<UserResource[]> {
    const response = await this.call('GET', `/v1/admin/users?page[size]=100&search[email]=${encodeURIComponent(term)}`);
    if (response.status !== 200) throw new Error(`list failed: ${response.status}`);
    return ((await response.json()) as UserListDocument).data;
  }

  /** Imports NDJSON records (a month of sign-ups, say); throws unless every one is created. */
  async importUsers(records: readonly object[]): Promise<void> {
    const body = records.map((record) => `${JSON.stringify(record)}\n`).join('');
    const response = await fetch(`${this.baseUrl}/v1/admin/users/import?on_conflict=fail&dry_run=false`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${this.token}`, 'Content-Type': 'application/x-ndjson' },
      body,
    });
    const report = (await response.json()) as ImportReportDocument;
    if (response.status !== 200 || report.data.attributes.created !== records.length)
      throw new Error(`import failed: ${response.status} ${JSON.stringify(report)}`);
  }

  /** A user's own login from a browser of `userAgent`; answers its status. */
  async userLogin(email: string, password: string, userAgent: string): Promise<number> {
    const response = await fetch(`${this.baseUrl}/v1/login`, {
      method: 'POST',
      headers: { 'Content-Type': JSON_API, 'User-Agent': userAgent },
      body: JSON.stringify({ data: { type: 'users', attributes: { email, password } } }),
    });
    await response.body?.cancel();
    return response.status;
  }

  /** The ids of a user's live sessions. */
  async sessionIds(userId: string): Promise<string[]> {
    const response = await this.call('GET', `/v1/admin/users/${userId}/sessions`);
    if (response.status !== 200) throw new Error(`sessions failed: ${response.status}`);
    return ((await response.json()) as SessionListDocument).data.map((session) => session.id);
  }

  /** The pending invitations (first page): their ids, emails and when they were last sent. */
  async pendingInvitations(): Promise<{ id: string; email: string; sent: string; userId: string }[]> {
    const response = await this.call('GET', '/v1/admin/invitations?page[size]=100');
    if (response.status !== 200) throw new Error(`invitations failed: ${response.status}`);
    const { data } = (await response.json()) as InvitationListDocument;
    return data.map(({ id, attributes }) => ({
      id,
      email: attributes.email,
      sent: attributes.sent,
      userId: attributes.user_id,
    }));
  }

  /** How many messages (of `kind`, when given) the outbox holds for `recipient` (first 100 messages). */
  async messagesTo(recipient: string, kind?: string): Promise<number> {
    const response = await this.call('GET', '/v1/admin/mail?page[size]=100');
    if (response.status !== 200) throw new Error(`mail failed: ${response.status}`);
    const { data } = (await response.json()) as MailMessageListDocument;
    return data.filter(
      ({ attributes }) => attributes.recipient === recipient && (kind === undefined || attributes.kind === kind),
    ).length;
  }

  /** Every administrator: id, email and role. */
  async admins(): Promise<{ id: string; email: string; role: string }[]> {
    const response = await this.call('GET', '/v1/admin/admins');
    if (response.status !== 200) throw new Error(`admins failed: ${response.status}`);
    const { data } = (await response.json()) as { data: { id: string; attributes: { email: string; role: string } }[] };
    return data.map(({ id, attributes }) => ({ id, email: attributes.email, role: attributes.role }));
  }

  /** Every webhook endpoint: its URL and why the service disabled it, if it did. */
  async webhooks(): Promise<{ id: string; url: string; disabled_reason: string | null }[]> {
    const response = await this.call('GET', '/v1/admin/webhooks');
    if (response.status !== 200) throw new Error(`webhooks failed: ${response.status}`);
    const { data } = (await response.json()) as {
      data: { id: string; attributes: { url: string; disabled_reason: string | null } }[];
    };
    return data.map(({ id, attributes }) => ({ id, url: attributes.url, disabled_reason: attributes.disabled_reason }));
  }

  /** Adds an identity provider (a `kind`, its slug, issuer, client id and secret…); throws unless 201. */
  async createIdentityProvider(attributes: Record<string, unknown>): Promise<void> {
    const response = await this.call('POST', '/v1/admin/identity-providers', {
      data: { type: 'identity_providers', attributes },
    });
    if (response.status !== 201) throw new Error(`provider create failed: ${response.status} ${await response.text()}`);
  }

  /** The answer of GET /v1/admin/identity-providers, as text: to look for what must not be in it. */
  async identityProvidersText(): Promise<string> {
    const response = await this.call('GET', '/v1/admin/identity-providers');
    if (response.status !== 200) throw new Error(`identity providers failed: ${response.status}`);
    return response.text();
  }

  /** Registers an OAuth client (`name`, `type`, `application_type`, `redirect_uris`, `scopes`…); answers its id. */
  async createOAuthClient(attributes: Record<string, unknown>): Promise<string> {
    const response = await this.call('POST', '/v1/admin/oauth-clients', {
      data: { type: 'oauth_clients', attributes },
    });
    if (response.status !== 201)
      throw new Error(`OAuth client create failed: ${response.status} ${await response.text()}`);
    return ((await response.json()) as { data: { id: string } }).data.id;
  }

  /** The admin API's list of OAuth clients, as its body reads: what a secret must never be found in. */
  async oauthClientsText(): Promise<string> {
    const response = await this.call('GET', '/v1/admin/oauth-clients');
    if (response.status !== 200) throw new Error(`OAuth clients failed: ${response.status}`);
    return response.text();
  }

  /** Invites an administrator with `role`: the link waits in the outbox (no SMTP_URL in tests). */
  async inviteAdmin(email: string, role: string): Promise<void> {
    const response = await this.call('POST', '/v1/admin/admins', {
      data: { type: 'admins', attributes: { email, role } },
    });
    if (response.status !== 201) throw new Error(`invite failed: ${response.status} ${await response.text()}`);
  }

  /** The signed-in admin's own view of themselves: the status tells whether the session still works. */
  async meStatus(): Promise<number> {
    const response = await this.call('GET', '/v1/admin/me');
    await response.body?.cancel();
    return response.status;
  }

  /** Ends every session of the admin, the browser's included. */
  async logoutEverywhere(): Promise<number> {
    return (await this.call('DELETE', `/v1/admin/logout/${this.adminId}`)).status;
  }

  private call(method: string, path: string, body?: unknown): Promise<Response> {
    return fetch(`${this.baseUrl}${path}`, {
      method,
      headers: { Authorization: `Bearer ${this.token}`, ...(body ? { 'Content-Type': JSON_API } : {}) },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
  }
}
