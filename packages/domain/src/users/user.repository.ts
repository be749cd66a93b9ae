import { token } from '../shared/token.ts';
import type { User } from './user.ts';

export interface UserListQuery {
  /** 1-based page number. */
  page: number;
  size: number;
  /** Case-insensitive substring of the email; `%`, `_` and `\` are literal characters. */
  emailContains?: string;
}

export interface UserPage {
  users: User[];
  /** Number of users matching the query across all pages. */
  total: number;
}

/**
 * Stores users. Emails arrive normalised; the store must refuse a second user with the same
 * email (EmailTakenError), also under concurrent writes. "Not found" is `null` or `false`.
 */
export interface UserRepository {
  insert(user: User): Promise<void>;
  findById(id: string): Promise<User | null>;
  findByEmail(email: string): Promise<User | null>;
  /** Ordered by `created` ascending, then `id`. */
  list(query: UserListQuery): Promise<UserPage>;
  /** Replaces the stored record with the same id; null when there is none. */
  update(user: User): Promise<User | null>;
  delete(id: string): Promise<boolean>;
}
export const UserRepository = token<UserRepository>('UserRepository');
