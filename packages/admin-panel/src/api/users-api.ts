import type { Session } from './session';
import type { UserPage, UserResource, UserWrite } from './types';

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
}

function userPath(id: string): string {
  return `${USERS}/${encodeURIComponent(id)}`;
}
