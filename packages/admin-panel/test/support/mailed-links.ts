import type { PanelServer } from './panel-server';

const JSON_API = 'application/vnd.api+json';
/** How long a message may take to reach the outbox: the sending endpoints queue it off the request path. */
const MAIL_WAIT_MS = 10_000;

interface ListedMessage {
  id: string;
  attributes: { kind: string; recipient: string };
}

/**
 * What an end user does through the API (sign up, ask for a link, log in, change their address),
 * and the outbox an admin reads (no SMTP_URL: every message waits there, links and all).
 */
export class MailedLinks {
  private constructor(
    private readonly baseUrl: string,
    private readonly adminToken: string,
  ) {}

  static async open(server: PanelServer): Promise<MailedLinks> {
    const response = await fetch(`${server.baseUrl}/v1/admin/login`, {
      method: 'POST',
      headers: { 'Content-Type': JSON_API },
      body: JSON.stringify({ data: { type: 'users', attributes: server.admin } }),
    });
    if (response.status !== 200) throw new Error(`admin login failed: ${response.status}`);
    const { data } = (await response.json()) as { data: { attributes: { access_token: string } } };
    return new MailedLinks(server.baseUrl, data.attributes.access_token);
  }

  /** The link of the newest message of `kind` to `recipient`, once it is in the outbox. */
  async link(recipient: string, kind: string): Promise<string> {
    const deadline = Date.now() + MAIL_WAIT_MS;
    for (;;) {
      const list = await this.admin('GET', '/v1/admin/mail?page[size]=100');
      const { data } = (await list.json()) as { data: ListedMessage[] };
      const message = data.find(({ attributes }) => attributes.recipient === recipient && attributes.kind === kind);
      if (message) {
        const read = await this.admin('GET', `/v1/admin/mail/${message.id}`);
        const { data: full } = (await read.json()) as { data: { attributes: { body: { text: string } | null } } };
        const link = /https?:\/\/\S+\/account\/[a-z-]+\?token=[\w-]+/.exec(full.attributes.body?.text ?? '')?.[0];
        if (!link) throw new Error(`no account link in the ${kind} message to ${recipient}`);
        return link;
      }
      if (Date.now() > deadline) throw new Error(`no ${kind} message to ${recipient} within ${MAIL_WAIT_MS} ms`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  /** What a mail scanner does with a link: a plain GET, reading the page. */
  async scan(link: string): Promise<number> {
    const response = await fetch(link, { headers: { 'User-Agent': 'LinkScanner/1.0' } });
    await response.text();
    return response.status;
  }

  signUp(email: string, password: string): Promise<number> {
    return this.status('POST', '/v1/signup', { data: { type: 'users', attributes: { email, password } } });
  }

  recover(email: string): Promise<number> {
    return this.status('POST', '/v1/recover', { email });
  }

  invite(email: string): Promise<number> {
    return this.status('POST', '/v1/admin/invitations', { data: { type: 'invitations', attributes: { email } } }, true);
  }

  /** A user's login: its status, and the access token when it succeeded. */
  async login(email: string, password: string): Promise<{ status: number; token: string | null }> {
    const response = await this.call('POST', '/v1/login', {
      data: { type: 'users', attributes: { email, password } },
    });
    const body = (await response.json()) as { data?: { attributes: { access_token: string } } };
    return { status: response.status, token: body.data?.attributes.access_token ?? null };
  }

  changeEmail(userToken: string, email: string, currentPassword: string): Promise<number> {
    return this.status('POST', '/v1/users/me/email', { email, current_password: currentPassword }, false, userToken);
  }

  private async status(method: string, path: string, body: unknown, asAdmin = false, token?: string) {
    const response = await this.call(method, path, body, asAdmin ? this.adminToken : token);
    await response.text();
    return response.status;
  }

  private admin(method: string, path: string) {
    return this.call(method, path, undefined, this.adminToken);
  }

  private call(method: string, path: string, body?: unknown, token?: string): Promise<Response> {
    return fetch(`${this.baseUrl}${path}`, {
      method,
      headers: {
        ...(token ? { Authorization: `Bearer ${token}` } : {}),
        ...(body === undefined ? {} : { 'Content-Type': JSON_API }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  }
}
