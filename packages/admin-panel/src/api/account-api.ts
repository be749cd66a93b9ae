import { type AdminSession, type components, type operations, type paths, unwrap } from '@uas/client';

type Ok<P extends keyof paths, M extends 'get'> =
  NonNullable<paths[P][M]> extends {
    responses: { 200: { content: { 'application/json': infer Body } } };
  }
    ? Body
    : never;

/** One live session of a user, as `GET /v1/admin/users/{id}/sessions` lists it. */
export type LoginSessionResource = Ok<'/v1/admin/users/{id}/sessions', 'get'>['data'][number];

/** `GET /v1/admin/stats`: user totals and the last 30 days, oldest first. */
export type Overview = Ok<'/v1/admin/stats', 'get'>['data']['attributes'];

/** One audit event, as `GET /v1/admin/audit-events` lists them (newest first). */
export type AuditEventResource = components['schemas']['AuditEventResource'];
export type AuditEventPage = components['schemas']['AuditEventListDocument'];
type AuditQuery = NonNullable<operations['listAuditEvents']['parameters']['query']>;

/** A page of the outbox, newest first, without bodies. */
export type MailMessagePage = Ok<'/v1/admin/mail', 'get'>;
/** One message of the outbox, with its body while it is still to be sent. */
export type MailMessageResource = Ok<'/v1/admin/mail/{id}', 'get'>['data'];

/** What the panel reads besides the users themselves: sessions, audit trail, overview, the mail outbox. */
export class AccountApi {
  constructor(private readonly session: AdminSession) {}

  async sessions(id: string, signal?: AbortSignal): Promise<LoginSessionResource[]> {
    const call = this.session.api.GET('/v1/admin/users/{id}/sessions', { params: { path: { id } }, signal });
    return (await unwrap(call)).data.data;
  }

  async endSession(id: string, sessionId: string): Promise<void> {
    await unwrap(
      this.session.api.DELETE('/v1/admin/users/{id}/sessions/{sessionId}', { params: { path: { id, sessionId } } }),
    );
  }

  async endAllSessions(id: string): Promise<void> {
    await unwrap(this.session.api.DELETE('/v1/admin/users/{id}/sessions', { params: { path: { id } } }));
  }

  /** @param path an audit list path, as built by `auditApiPathOf` or taken from the API's `links`. */
  async auditEvents(path: string, signal?: AbortSignal): Promise<AuditEventPage> {
    // The path's parameters as the panel or the API's links wrote them; the server checks each.
    const query = Object.fromEntries(new URLSearchParams(path.split('?')[1] ?? '')) as AuditQuery;
    return (await unwrap(this.session.api.GET('/v1/admin/audit-events', { params: { query }, signal }))).data;
  }

  async mailMessages(page: number, signal?: AbortSignal): Promise<MailMessagePage> {
    return (
      await unwrap(this.session.api.GET('/v1/admin/mail', { params: { query: { 'page[number]': page } }, signal }))
    ).data;
  }

  async mailMessage(id: string, signal?: AbortSignal): Promise<MailMessageResource> {
    return (await unwrap(this.session.api.GET('/v1/admin/mail/{id}', { params: { path: { id } }, signal }))).data.data;
  }

  async overview(signal?: AbortSignal): Promise<Overview> {
    return (await unwrap(this.session.api.GET('/v1/admin/stats', { signal }))).data.data.attributes;
  }
}
