import type { Clock } from '../shared/clock.ts';
import type { IdGenerator } from '../shared/id-generator.ts';
import type { PasswordHasher } from '../shared/password-hasher.ts';
import { NotFoundError, ValidationError } from '../shared/errors.ts';
import type { SessionRepository } from '../sessions/session.repository.ts';
import type { NewUser, User, UserPatch } from './user.ts';
import type { UserListQuery, UserPage, UserRepository } from './user.repository.ts';
import {
  applyUserPatch,
  patchEndsSessions,
  newUserIssues,
  normalizeEmail,
  userAttributeIssues,
  type UserChanges,
} from './user.rules.ts';
import type { ActiveFlag } from './user.ts';

export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 100;

export interface UserServiceDeps {
  users: UserRepository;
  sessions: SessionRepository;
  hasher: PasswordHasher;
  clock: Clock;
  ids: IdGenerator;
}

/** Account management as an administrator sees it. */
export class UserService {
  constructor(private readonly deps: UserServiceDeps) {}

  async create(input: NewUser): Promise<User> {
    const issues = newUserIssues(input);
    if (issues.length > 0) throw new ValidationError(issues);
    const now = this.deps.clock.now();
    const user: User = {
      id: this.deps.ids.next(),
      name: input.name ?? '',
      email: normalizeEmail(input.email),
      passwordHash: await this.deps.hasher.hash(input.password),
      metadata: input.metadata ?? {},
      app: input.app ?? {},
      active: (input.active ?? 1) as ActiveFlag,
      created: now,
      updated: now,
    };
    await this.deps.users.insert(user);
    return user;
  }

  async get(id: string): Promise<User> {
    const user = await this.deps.users.findById(id);
    if (!user) throw new NotFoundError('user');
    return user;
  }

  list(query: UserListQuery): Promise<UserPage> {
    const emailContains = query.emailContains?.trim().toLowerCase();
    return this.deps.users.list({ ...query, emailContains: emailContains || undefined });
  }

  /** Applies a partial update; a new password or deactivation ends the user's sessions. */
  async update(id: string, patch: UserPatch, keepSessionId?: string): Promise<User> {
    const issues = userAttributeIssues(patch);
    if (issues.length > 0) throw new ValidationError(issues);
    const current = await this.get(id);
    const { password, active, ...rest } = patch;
    const changes: UserChanges = { ...rest };
    if (password !== undefined) changes.passwordHash = await this.deps.hasher.hash(password);
    if (active !== undefined) changes.active = active as ActiveFlag;
    const now = this.deps.clock.now();
    const updated = await this.deps.users.update(applyUserPatch(current, changes, now));
    if (!updated) throw new NotFoundError('user');
    if (patchEndsSessions(current, patch)) {
      await this.deps.sessions.revokeSubjectSessions('user', id, now, keepSessionId);
    }
    return updated;
  }

  async delete(id: string): Promise<void> {
    if (!(await this.deps.users.delete(id))) throw new NotFoundError('user');
    await this.deps.sessions.revokeSubjectSessions('user', id, this.deps.clock.now());
  }
}
