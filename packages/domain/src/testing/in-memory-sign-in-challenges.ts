import type { SignInChallenge } from '../sign-in/sign-in-challenge.ts';
import type { SignInChallengeRepository } from '../sign-in/sign-in-challenge.repository.ts';
import type { SubjectKind } from '../shared/identity.ts';
import type { DroppedWithAccount } from './dropped-with-account.ts';

/** Sign-in challenges in memory; each count and completion is one step, as the stores' updates are. */
export class InMemorySignInChallengeRepository implements SignInChallengeRepository, DroppedWithAccount {
  private readonly rows = new Map<string, SignInChallenge>();

  async create(challenge: SignInChallenge): Promise<void> {
    this.rows.set(challenge.id, structuredClone(challenge));
  }

  async find(id: string): Promise<SignInChallenge | null> {
    const row = this.rows.get(id);
    return row ? structuredClone(row) : null;
  }

  async fail(id: string, completed: Date): Promise<number> {
    const row = this.rows.get(id);
    if (row?.completed?.getTime() !== completed.getTime()) return 0;
    this.rows.set(id, { ...row, failures: row.failures + 1, completed: null });
    return row.failures + 1;
  }

  async complete(id: string, at: Date, maxFailures: number): Promise<boolean> {
    const row = this.rows.get(id);
    if (!row || row.completed !== null || row.failures >= maxFailures || row.expires <= at) return false;
    this.rows.set(id, { ...row, completed: at });
    return true;
  }

  dropAccount(owner: SubjectKind, subjectId: string): void {
    for (const [id, row] of this.rows) if (row.owner === owner && row.subjectId === subjectId) this.rows.delete(id);
  }

  async prune(before: Date): Promise<void> {
    for (const [id, row] of this.rows) if (row.expires < before) this.rows.delete(id);
  }
}
