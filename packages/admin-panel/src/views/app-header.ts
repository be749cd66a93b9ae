import type { AdminPermission } from '../state/permissions';
import { paths } from '../state/routes';
import { h } from '../ui/dom';
import type { ScreenContext } from './view';
import { navLink } from '../ui/nav-link';
import { toast } from '../ui/toast';

/** Each section, and the permission it needs to be offered (its page reads what that permission allows). */
const SECTIONS = [
  ['overview', paths.overview, 'Overview', 'stats.read'],
  ['users', paths.users, 'Users', 'users.read'],
  ['invitations', paths.invitations, 'Invitations', 'invitations.read'],
  ['admins', paths.admins, 'Admins', 'admins.manage'],
  ['webhooks', paths.webhooks, 'Webhooks', 'settings.manage'],
  ['identity-providers', paths.identityProviders, 'Sign-in providers', 'settings.manage'],
  ['oauth-clients', paths.oauthClients, 'Applications', 'settings.manage'],
  ['audit', paths.audit, 'Audit log', 'audit.read'],
  ['mail', paths.mail, 'Mail', 'mail.read'],
  ['security', paths.security, 'Security', 'self'],
] as const satisfies readonly (readonly [string, string, string, AdminPermission])[];
export type Section = (typeof SECTIONS)[number][0];

/** The bar at the top of signed-in pages: the sections the role may open, who is signed in (and as what), the way out. */
export function appHeader({ me, can, navigate, onSignedOut, session }: ScreenContext, current: Section): HTMLElement {
  const logout = h('button', { type: 'button', class: 'button small ghost' }, 'Log out');
  logout.addEventListener('click', async () => {
    logout.disabled = true;
    try {
      await session.logout();
      onSignedOut();
    } catch (error) {
      toast(`Could not sign out: ${(error as Error).message}`, 'error');
      logout.disabled = false;
    }
  });
  return h(
    'header',
    { class: 'topbar' },
    h('span', { class: 'brand' }, 'User accounts', h('span', { class: 'brand-tag' }, 'Admin')),
    h(
      'nav',
      { class: 'sections', 'aria-label': 'Sections' },
      // While a factor must be enrolled the role is not read (me.role null): every section stays
      // offered, and the enrolment gate keeps the admin on Security until a factor is active.
      ...SECTIONS.filter(([section, , , permission]) => me.role === null || section === current || can(permission)).map(
        ([section, path, label]) =>
          navLink(
            navigate,
            path,
            { class: 'section-link', 'aria-current': section === current ? 'page' : null },
            label,
          ),
      ),
    ),
    h(
      'div',
      { class: 'who' },
      h('span', { class: 'who-email', title: me.name || me.email }, me.email),
      me.role ? h('span', { class: 'badge role', 'data-role': me.role, title: 'Your role' }, me.role) : null,
      logout,
    ),
  );
}
