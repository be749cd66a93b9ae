import type { Session } from './session';
import type { ConflictPolicy, ImportReport, UserPage, UserResource, UserWrite } from './types';

const USERS = '/v1/admin/users';

/** The admin API's user operations, each carried by the admin's session. */
export class UsersApi {
  constructor(private readonly session: Session) {}

  /** @param path a list path, as built by `apiPathOf` or taken from the API's own `links`. */
  list(path: string, signal?: AbortSignal): Promise<UserPage> {
    return this.session.call<UserPage>(path, signal ? { signal } : {});
  }

  async get(id: string): Promise<UserResource> {
    return (await this.getTagged(id)).user;
  }

  /** The user and its ETag, for an edit that must not overwrite a change made elsewhere. */
  async getTagged(id: string): Promise<{ user: UserResource; etag: string | null }> {
    const { body, etag } = await this.session.callTagged<{ data: UserResource }>(userPath(id));
    return { user: body.data, etag };
  }

  async create(attributes: UserWrite): Promise<UserResource> {
    const body = { data: { type: 'users', attributes } };
    return (await this.session.call<{ data: UserResource }>(USERS, { method: 'POST', body })).data;
  }

  /** With `ifMatch` (the ETag read), a user changed since answers 412 instead of being overwritten. */
  async update(id: string, attributes: UserWrite, ifMatch?: string | null): Promise<UserResource> {
    const body = { data: { type: 'users', id, attributes } };
    const options = { method: 'PATCH' as const, body, ...(ifMatch ? { ifMatch } : {}) };
    return (await this.session.call<{ data: UserResource }>(userPath(id), options)).data;
  }

  async remove(id: string): Promise<void> {
    await this.session.call<undefined>(userPath(id), { method: 'DELETE' });
  }

  /** Every user (or those whose email contains `search`) as an NDJSON file, without password hashes. */
  exportFile(search: string): Promise<{ blob: Blob; filename: string | null }> {
    const query = search ? `?search[email]=${encodeURIComponent(search)}` : '';
    return this.session.download(`${USERS}/export${query}`);
  }

  /** Sends an NDJSON file of user records; answers the import's report. */
  async importFile(file: Blob, onConflict: ConflictPolicy, dryRun: boolean): Promise<ImportReport> {
    const path = `${USERS}/import?on_conflict=${onConflict}&dry_run=${dryRun}`;
    const upload = { content: file, type: 'application/x-ndjson' };
    return (await this.session.call<{ data: { attributes: ImportReport } }>(path, { method: 'POST', upload })).data
      .attributes;
  }
}

function userPath(id: string): string {
  return `${USERS}/${encodeURIComponent(id)}`;
}
