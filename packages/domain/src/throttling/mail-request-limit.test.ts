import { describe, expect, it } from '../testing/test-api.ts';
import { ADDRESS, buildDomain, OTHER_ADDRESS, rejectionOf } from '../testing/domain-fixture.ts';
import { TooManyAttemptsError } from '../shared/errors.ts';
import { DEFAULT_MAIL_LIMITS } from '../use-cases.ts';

describe('MailRequestLimit', () => {
  it('lets a client address make its requests a minute, then refuses with the wait until the window ends', async () => {
    const domain = buildDomain({ mailLimits: { ...DEFAULT_MAIL_LIMITS, requestsPerMinute: 3 } });
    for (let n = 0; n < 3; n += 1) await domain.mailRequestLimit.enter(ADDRESS);
    domain.clock.advance(20);
    const refused = await rejectionOf(domain.mailRequestLimit.enter(ADDRESS), TooManyAttemptsError);
    expect(refused.retryAfterSeconds).toBe(40);
    expect(refused.code).toBe('too_many_attempts');
    await domain.mailRequestLimit.enter(OTHER_ADDRESS);
    domain.clock.advance(40);
    await domain.mailRequestLimit.enter(ADDRESS);
  });

  it('counts every one of many concurrent requests', async () => {
    const domain = buildDomain({ mailLimits: { ...DEFAULT_MAIL_LIMITS, requestsPerMinute: 5 } });
    const outcomes = await Promise.allSettled(Array.from({ length: 20 }, () => domain.mailRequestLimit.enter(ADDRESS)));
    expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(5);
  });
});
