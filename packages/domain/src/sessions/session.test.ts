import { describe, expect, it } from '../testing/test-api.ts';
import { sampleSession } from '../testing/sample-session.ts';
import { refreshTokenState, type RefreshToken, type Session } from './session.ts';

const t0 = new Date('2026-01-01T00:00:00.000Z');
const after = (seconds: number) => new Date(t0.getTime() + seconds * 1000);
const session: Session = sampleSession({ id: 's1', subjectId: 'u1', created: t0 });
const token: RefreshToken = {
  id: 't1',
  sessionId: 's1',
  issued: t0,
  expires: after(3600),
  retired: null,
  revoked: null,
};

describe('refreshTokenState', () => {
  it('is current for an unused token of an open session before it expires', () => {
    expect(refreshTokenState(token, session, after(3599))).toBe('current');
  });

  it('is expired from the expiry instant on', () => {
    expect(refreshTokenState(token, session, after(3600))).toBe('expired');
  });

  it('is retired for a token already exchanged: presenting it is reuse', () => {
    expect(refreshTokenState({ ...token, retired: after(10) }, session, after(20))).toBe('retired');
  });

  it('is revoked for a revoked token, and for any token of a revoked session', () => {
    expect(refreshTokenState({ ...token, revoked: after(10) }, session, after(20))).toBe('revoked');
    expect(refreshTokenState(token, { ...session, revoked: after(10) }, after(20))).toBe('revoked');
  });

  it('prefers revoked over retired, so reuse in an ended session revokes nothing more', () => {
    expect(refreshTokenState({ ...token, retired: after(5) }, { ...session, revoked: after(10) }, after(20))).toBe(
      'revoked',
    );
  });

  it('prefers retired over expired, so a retired token stays reuse until the signer refuses it', () => {
    expect(refreshTokenState({ ...token, retired: after(5) }, session, after(4000))).toBe('retired');
  });
});
