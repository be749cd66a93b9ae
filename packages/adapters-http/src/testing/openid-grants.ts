import { GRANT_MODEL } from '@uas/domain';
import type { TestApp } from './test-app';

/**
 * Stores a grant as the OpenID engine would after a user consented (oidc-provider's `Grant`: the
 * scopes in `openid.scope`, made at `iat`), and an access token of it: revoking the grant must
 * remove both. Answers the grant's id.
 */
export async function storeGrant(
  t: TestApp,
  { accountId, clientId, scope }: { accountId: string; clientId: string; scope: string },
): Promise<string> {
  const id = `grant-${t.ids.next()}`;
  const iat = Math.floor(t.clock.now().getTime() / 1000);
  const expires = new Date((iat + 3600) * 1000);
  const common = { grantId: id, uid: null, accountId, clientId, expires };
  await t.repositories.openIdRecords.upsert({
    ...common,
    model: GRANT_MODEL,
    id,
    payload: { jti: id, kind: GRANT_MODEL, accountId, clientId, iat, exp: iat + 3600, openid: { scope } },
  });
  await t.repositories.openIdRecords.upsert({
    ...common,
    model: 'AccessToken',
    id: `token-of-${id}`,
    payload: { jti: `token-of-${id}`, kind: 'AccessToken', grantId: id, accountId, clientId },
  });
  return id;
}
