import { describe, expect, it } from 'vitest';
import { disabledByService, webhookStatus } from '../../src/state/webhook-status';

const SINCE = '2026-11-20T10:00:00.000Z';

describe('webhookStatus', () => {
  it.each([
    [{ enabled: true, disabled_reason: null, failing_since: null }, 'Enabled', 'on', false],
    [{ enabled: true, disabled_reason: null, failing_since: SINCE }, 'Failing', 'warn', false],
    [{ enabled: false, disabled_reason: null, failing_since: null }, 'Disabled by an admin', 'off', false],
    [{ enabled: false, disabled_reason: 'failing', failing_since: SINCE }, 'Disabled: failing for 5 days', 'off', true],
    [
      { enabled: false, disabled_reason: 'gone', failing_since: null },
      'Disabled: the receiver answered 410 Gone',
      'off',
      true,
    ],
  ])('says how %o stands, and whether an admin must be told', (state, text, tone, told) => {
    expect(webhookStatus(state)).toEqual({ text, tone });
    expect(disabledByService(state)).toBe(told);
  });
});
