import { token } from './token.ts';

export interface PasswordHasher {
  hash(password: string): Promise<string>;
  verify(password: string, hash: string): Promise<boolean>;
}
export const PasswordHasher = token<PasswordHasher>('PasswordHasher');
