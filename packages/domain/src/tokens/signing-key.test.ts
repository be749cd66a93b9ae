import { describe, expect, it } from '../testing/test-api.ts';
import { signingKeyAt } from './signing-key.ts';

const t0 = new Date('2026-01-01T00:00:00.000Z');
const at = (seconds: number) => new Date(t0.getTime() + seconds * 1000);
const key = (kid: string, created: number, activates: number) => ({
  kid,
  created: at(created),
  activates: at(activates),
});

describe('signingKeyAt()', () => {
  const first = key('first', 0, 0);
  const scheduled = key('scheduled', 100, 465);

  it('keeps the activated key signing while a newer one waits for its activation, then switches at that very time', () => {
    expect(signingKeyAt([scheduled, first], at(100))?.kid).toBe('first');
    expect(signingKeyAt([scheduled, first], at(464.999))?.kid).toBe('first');
    expect(signingKeyAt([scheduled, first], at(465))?.kid).toBe('scheduled');
    expect(signingKeyAt([scheduled, first], at(10_000))?.kid).toBe('scheduled');
  });

  it('takes the key activated last, whatever order the keys come in', () => {
    const immediate = key('immediate', 200, 200);
    expect(signingKeyAt([first, immediate, scheduled], at(300))?.kid).toBe('immediate');
    expect(signingKeyAt([scheduled, immediate, first], at(500))?.kid).toBe('scheduled');
  });

  it('on equal activation times, the newer key signs', () => {
    const older = key('older', 10, 50);
    const newer = key('newer', 20, 50);
    expect(signingKeyAt([older, newer], at(60))?.kid).toBe('newer');
    expect(signingKeyAt([newer, older], at(60))?.kid).toBe('newer');
  });

  it('is null while no key is activated', () => {
    expect(signingKeyAt([scheduled], at(0))).toBeNull();
    expect(signingKeyAt([], at(0))).toBeNull();
  });
});
