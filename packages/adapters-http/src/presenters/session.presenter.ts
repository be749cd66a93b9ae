import type { SessionGrant } from '@uas/domain';
import { timestamp } from './user.presenter';

/** Unix time in seconds, as the token's `exp` claim writes it. */
const epochSeconds = (date: Date): number => Math.floor(date.getTime() / 1000);

/** The session record that login and refresh return (spec 2.2), for admins and users alike. */
export function sessionDocument(grant: SessionGrant) {
  const { principal } = grant;
  return {
    data: {
      type: 'users' as const,
      id: principal.id,
      attributes: {
        name: principal.name,
        email: principal.email,
        created: timestamp(principal.created),
        access_token: grant.accessToken,
        access_token_expiry: epochSeconds(grant.accessTokenExpires),
        refresh_token: grant.refreshToken,
      },
    },
  };
}
