/** The two kinds of account: a session, a token and a throttle key each belong to one. */
export type SubjectKind = 'admin' | 'user';

/** Who an access token speaks for, once its signature and its session have been checked. */
export interface Identity {
  kind: SubjectKind;
  subjectId: string;
  sessionId: string;
}
