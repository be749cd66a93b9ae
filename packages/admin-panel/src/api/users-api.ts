import {
  type AdminSession,
  type ConflictPolicy,
  type ImportReport,
  type UserCreate,
  type UserListDocument,
  type UserResource,
  type UserWrite,
  type SecondStepAnswer,
  type operations,
  unwrap,
} from '@uas/client';

/** A user as the admin API shows it: with the ban in force, if any, which end users never see. */
export type AdminUser = operations['getUser']['responses'][200]['content']['application/json']['data'];

/** What an impersonation gives: the token as the user, and when it stops working. */
export type Impersonation =
  operations['impersonateUser']['responses'][201]['content']['application/json']['data']['attributes'];

const NDJSON = 'application/x-ndjson';

/** The list query of a path such as the API's own `links` give (`/v1/admin/users?page[number]=2&…`). */
function listQuery(path: string) {
  const parameters = new URLSearchParams(path.split('?')[1] ?? '');
  const number = parameters.get('page[number]');
  const size = parameters.get('page[size]');
  const search = parameters.get('search[email]');
  return {
    ...(number === null ? {} : { 'page[number]': Number(number) }),
    ...(size === null ? {} : { 'page[size]': Number(size) }),
    ...(search === null ? {} : { 'search[email]': search }),
  };
}

/** The admin API's user operations, each carried by the admin's session. */
export class UsersApi {
  constructor(private readonly session: AdminSession) {}

  /** @param path a list path, as built by `apiPathOf` or taken from the API's own `links`. */
  async list(path: string, signal?: AbortSignal): Promise<UserListDocument> {
    const query = listQuery(path);
    return (await unwrap(this.session.api.GET('/v1/admin/users', { params: { query }, ...(signal ? { signal } : {}) })))
      .data;
  }

  async get(id: string): Promise<AdminUser> {
    return (await this.getTagged(id)).user;
  }

  /** The user and its ETag, for an edit that must not overwrite a change made elsewhere. */
  async getTagged(id: string): Promise<{ user: AdminUser; etag: string | null }> {
    const { data, response } = await unwrap(this.session.api.GET('/v1/admin/users/{id}', { params: { path: { id } } }));
    return { user: data.data, etag: response.headers.get('ETag') };
  }

  async create(attributes: UserWrite): Promise<UserResource> {
    const body = { data: { type: 'users' as const, attributes: attributes as UserCreate } };
    return (await unwrap(this.session.api.POST('/v1/admin/users', { body }))).data.data;
  }

  /** With `ifMatch` (the ETag read), a user changed since answers 412 instead of being overwritten. */
  async update(id: string, attributes: UserWrite, ifMatch?: string | null): Promise<UserResource> {
    const body = { data: { type: 'users' as const, id, attributes } };
    const headers = ifMatch ? { 'If-Match': ifMatch } : {};
    return (
      await unwrap(this.session.api.PATCH('/v1/admin/users/{id}', { params: { path: { id }, header: headers }, body }))
    ).data.data;
  }

  async remove(id: string): Promise<void> {
    await unwrap(this.session.api.DELETE('/v1/admin/users/{id}', { params: { path: { id } } }));
  }

  /** Queues a message to the user with a link to set a new password (their address must hold it). */
  async sendRecovery(id: string): Promise<void> {
    await unwrap(this.session.api.POST('/v1/admin/users/{id}/recovery', { params: { path: { id } } }));
  }

  /** Queues a message with a new verification link, to a user whose address is not verified (else 409). */
  async resendVerification(id: string): Promise<void> {
    await unwrap(this.session.api.POST('/v1/admin/users/{id}/verification', { params: { path: { id } } }));
  }

  /** Bans the user (every session ends with it) until `until`, or until unbanned when null. */
  async ban(id: string, reason: string, until: string | null): Promise<AdminUser> {
    const call = this.session.api.POST('/v1/admin/users/{id}/ban', {
      params: { path: { id } },
      body: { reason, until },
    });
    return (await unwrap(call)).data.data;
  }

  async unban(id: string): Promise<AdminUser> {
    return (await unwrap(this.session.api.DELETE('/v1/admin/users/{id}/ban', { params: { path: { id } } }))).data.data;
  }

  /**
   * A short-lived access token as the user, for support (IMPERSONATION=on), with the admin's second
   * factor when they have one (the server asks with 403 `second_factor_required`).
   */
  async impersonate(id: string, reason: string, proof?: SecondStepAnswer): Promise<Impersonation> {
    const body = { reason, ...proof };
    const call = this.session.api.POST('/v1/admin/users/{id}/impersonation', { params: { path: { id } }, body });
    return (await unwrap(call)).data.data.attributes;
  }

  /** Every user (or those whose email contains `search`) as an NDJSON file, without password hashes. */
  async exportFile(search: string): Promise<{ blob: Blob; filename: string | null }> {
    const query = search ? { 'search[email]': search } : {};
    const { data, response } = await unwrap(
      this.session.api.GET('/v1/admin/users/export', { params: { query }, parseAs: 'blob' }),
    );
    const filename = /filename="([^"]+)"/.exec(response.headers.get('Content-Disposition') ?? '')?.[1] ?? null;
    return { blob: data as Blob, filename };
  }

  /** Sends an NDJSON file of user records; answers the import's report. */
  async importFile(file: Blob, onConflict: ConflictPolicy, dryRun: boolean): Promise<ImportReport> {
    const { data } = await unwrap(
      this.session.api.POST('/v1/admin/users/import', {
        params: { query: { on_conflict: onConflict, dry_run: String(dryRun) as 'true' | 'false' } },
        // The file goes as it is: its bytes are the body, not a JSON string of them.
        body: file as unknown as string,
        bodySerializer: (body) => body,
        headers: { 'Content-Type': NDJSON },
      }),
    );
    return data.data.attributes;
  }
}
