import type { SubjectKind } from '../shared/identity.ts';

/** Records of an account that go when it is deleted, as the databases' foreign keys take them along. */
export interface DroppedWithAccount {
  dropAccount(owner: SubjectKind, subjectId: string): void;
}
