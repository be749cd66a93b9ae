/** The two kinds of account: a session, a token and a throttle key each belong to one. */
export type SubjectKind = 'admin' | 'user';

/** Who an access token speaks for, once its signature and its session have been checked. */
export interface Identity {
  kind: SubjectKind;
  subjectId: string;
  sessionId: string;
  /**
   * The admin acting through this token, when its session was opened by impersonation: the
   * token speaks for the user, the admin answers for what it does.
   */
  impersonatorId?: string;
}
