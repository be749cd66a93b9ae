import { describe, expect, it } from '../testing/test-api.ts';
import { ADDRESS, buildDomain, PASSWORD } from '../testing/domain-fixture.ts';
import { OverviewService, OVERVIEW_DAYS } from './overview-service.ts';
import { daysEndingOn } from './activity.ts';

describe('OverviewService', () => {
  it('counts users by state, and sign-ups, user logins and failed user logins per day, zero on quiet days', async () => {
    const domain = buildDomain();
    const overview = new OverviewService({ activity: domain.repositories.activity, clock: domain.clock });
    const ada = await domain.createUser();
    await domain.createUser({ active: 0 });
    domain.clock.advance(86_400);
    await domain.userLogin(ada.email, PASSWORD, ADDRESS);
    await domain.failLogins(domain.userAuth, ada.email, 2);
    await domain.failLogins(domain.userAuth, 'nobody@example.com', 1);
    await domain.signedInAdmin();
    await domain.failLogins(domain.adminAuth, 'admin@example.com', 1);

    const { users, days } = await overview.overview();
    expect(users).toEqual({ total: 2, active: 1, deactivated: 1 });
    expect(days).toHaveLength(OVERVIEW_DAYS);
    expect(days.at(-1)).toEqual({ day: '2026-01-02', signups: 0, logins: 1, failedLogins: 3 });
    expect(days.at(-2)).toEqual({ day: '2026-01-01', signups: 2, logins: 0, failedLogins: 0 });
    expect(days[0]).toEqual({ day: '2025-12-04', signups: 0, logins: 0, failedLogins: 0 });
  });

  it('daysEndingOn() counts back across months and years', () => {
    expect(daysEndingOn('2026-03-01', 3)).toEqual(['2026-02-27', '2026-02-28', '2026-03-01']);
    expect(daysEndingOn('2026-01-01', 2)).toEqual(['2025-12-31', '2026-01-01']);
  });
});
