import type { UserAttributes, UserWrite } from '@uas/client';
import { jsonEqual } from './json-object';

/** What the user form holds once its JSON fields have been parsed; verified or not, as a checkbox. */
export type UserFormValues = Required<
  Pick<UserWrite, 'name' | 'email' | 'password' | 'active' | 'metadata' | 'app'>
> & {
  email_verified: boolean;
};

/** The attributes to send in a PATCH: only those that differ; a blank password is no change. */
export function changedAttributes(original: UserAttributes, values: UserFormValues): UserWrite {
  const changes: UserWrite = {};
  if (values.name !== original.name) changes.name = values.name;
  if (values.email !== original.email) changes.email = values.email;
  if (values.password !== '') changes.password = values.password;
  if (values.active !== (original.active === 1 ? 1 : 0)) changes.active = values.active;
  // `true` keeps the time of an earlier verification: only a change of state is sent.
  if (values.email_verified !== (original.email_verified !== null)) changes.email_verified = values.email_verified;
  if (!jsonEqual(values.metadata, original.metadata)) changes.metadata = values.metadata;
  if (!jsonEqual(values.app, original.app)) changes.app = values.app;
  return changes;
}

/** The attributes to send on create: everything but a blank password. */
export function createAttributes(values: UserFormValues): UserWrite {
  const { password, ...rest } = values;
  return password === '' ? rest : values;
}
