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
    return (await this.session.call<{ data: UserResource }>(userPath(id))).data;
  }

  async create(attributes: UserWrite): Promise<UserResource> {
    const body = { data: { type: 'users', attributes } };
    return (await this.session.call<{ data: UserResource }>(USERS, { method: 'POST', body })).data;
  }

  async update(id: string, attributes: UserWrite): Promise<UserResource> {
    const body = { data: { type: 'users', id, attributes } };
    return (await this.session.call<{ data: UserResource }>(userPath(id), { method: 'PATCH', body })).data;
  }

  async remove(id: string): Promise<void> {
    await this.session.call<undefined>(userPath(id), { method: 'DELETE' });
  }
}

function userPath(id: string): string {
  return `${USERS}/${encodeURIComponent(id)}`;
}
