import type { Session } from './session';
import type { AuditEventPage, LoginSessionResource, Overview } from './types';

const usersPath = (id: string) => `/v1/admin/users/${encodeURIComponent(id)}`;

/** What the panel reads about accounts besides the users themselves: sessions, audit trail, overview. */
export class AccountApi {
  constructor(private readonly session: Session) {}

  async sessions(userId: string, signal?: AbortSignal): Promise<LoginSessionResource[]> {
    const options = signal ? { signal } : {};
    return (await this.session.call<{ data: LoginSessionResource[] }>(`${usersPath(userId)}/sessions`, options)).data;
  }

  async endSession(userId: string, sessionId: string): Promise<void> {
    await this.session.call<undefined>(`${usersPath(userId)}/sessions/${encodeURIComponent(sessionId)}`, {
      method: 'DELETE',
    });
  }

  async endAllSessions(userId: string): Promise<void> {
    await this.session.call<undefined>(`${usersPath(userId)}/sessions`, { method: 'DELETE' });
  }

  /** @param path an audit list path, as built by `auditApiPathOf` or taken from the API's `links`. */
  auditEvents(path: string, signal?: AbortSignal): Promise<AuditEventPage> {
    return this.session.call<AuditEventPage>(path, signal ? { signal } : {});
  }

  async overview(signal?: AbortSignal): Promise<Overview> {
    const options = signal ? { signal } : {};
    return (await this.session.call<{ data: { attributes: Overview } }>('/v1/admin/stats', options)).data.attributes;
  }
}
