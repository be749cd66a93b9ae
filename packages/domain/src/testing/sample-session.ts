import type { RefreshToken, Session } from '../sessions/session.ts';

const T0 = new Date('2026-01-01T00:00:00.000Z');
let sequence = 0;

/** A session opened at `created` (T0 unless told) that lasts an hour unless told otherwise. */
export function sampleSession(overrides: Partial<Session> = {}): Session {
  sequence += 1;
  const created = overrides.created ?? T0;
  return {
    id: `20000000-0000-4000-8000-${sequence.toString(16).padStart(12, '0')}`,
    kind: 'user',
    subjectId: `20000000-0000-4000-9000-${sequence.toString(16).padStart(12, '0')}`,
    created,
    lastUsed: created,
    expires: new Date(created.getTime() + 3_600_000),
    clientAddress: '203.0.113.7',
    userAgent: 'Contract/1.0',
    amr: ['pwd'],
    revoked: null,
    impersonatorId: null,
    ...overrides,
  };
}

/** The refresh token a login hands out with `session`: issued as it opens, lasting as long. */
export function firstTokenOf(session: Session): RefreshToken {
  const { id: sessionId, created: issued, expires } = session;
  return { id: crypto.randomUUID(), sessionId, issued, expires, retired: null, revoked: null };
}
