/** The panel's screens and the paths that show them; anything else under /admin/ is the overview. */
export type Route =
  | { screen: 'login' }
  | { screen: 'overview' }
  | { screen: 'users' }
  | { screen: 'user'; id: string }
  | { screen: 'audit' }
  | { screen: 'mail' }
  | { screen: 'invitations' }
  | { screen: 'admins' }
  | { screen: 'webhooks' }
  | { screen: 'webhook'; id: string }
  | { screen: 'identity-providers' }
  | { screen: 'oauth-clients' }
  | { screen: 'security' };

const PANEL = '/admin';
export const paths = {
  login: `${PANEL}/login`,
  overview: `${PANEL}/`,
  users: `${PANEL}/users`,
  user: (id: string) => `${PANEL}/users/${encodeURIComponent(id)}`,
  audit: `${PANEL}/audit`,
  mail: `${PANEL}/mail`,
  invitations: `${PANEL}/invitations`,
  admins: `${PANEL}/admins`,
  webhooks: `${PANEL}/webhooks`,
  webhook: (id: string) => `${PANEL}/webhooks/${encodeURIComponent(id)}`,
  identityProviders: `${PANEL}/sign-in-providers`,
  oauthClients: `${PANEL}/applications`,
  security: `${PANEL}/security`,
} as const;

export function routeOf(pathname: string): Route {
  const path = pathname.replace(/\/+$/, '');
  if (path === paths.login) return { screen: 'login' };
  if (path === paths.users) return { screen: 'users' };
  if (path === paths.audit) return { screen: 'audit' };
  if (path === paths.mail) return { screen: 'mail' };
  if (path === paths.invitations) return { screen: 'invitations' };
  if (path === paths.admins) return { screen: 'admins' };
  if (path === paths.webhooks) return { screen: 'webhooks' };
  if (path === paths.identityProviders) return { screen: 'identity-providers' };
  if (path === paths.oauthClients) return { screen: 'oauth-clients' };
  if (path === paths.security) return { screen: 'security' };
  const user = /^\/admin\/users\/([^/]+)$/.exec(path);
  if (user?.[1]) return { screen: 'user', id: decodeURIComponent(user[1]) };
  const webhook = /^\/admin\/webhooks\/([^/]+)$/.exec(path);
  if (webhook?.[1]) return { screen: 'webhook', id: decodeURIComponent(webhook[1]) };
  return { screen: 'overview' };
}

/** Whether two routes show the same screen of the same thing (then only the query may differ). */
export const sameScreen = (a: Route, b: Route): boolean =>
  a.screen === b.screen && (!('id' in a) || ('id' in b && a.id === b.id));
