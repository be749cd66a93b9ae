import { paths } from '../state/routes';
import { h } from '../ui/dom';
import type { ScreenContext } from './view';
import { navLink } from '../ui/nav-link';
import { toast } from '../ui/toast';

const SECTIONS = [
  ['overview', paths.overview, 'Overview'],
  ['users', paths.users, 'Users'],
  ['invitations', paths.invitations, 'Invitations'],
  ['audit', paths.audit, 'Audit log'],
  ['mail', paths.mail, 'Mail'],
  ['security', paths.security, 'Security'],
] as const;
export type Section = (typeof SECTIONS)[number][0];

/** The bar at the top of signed-in pages: the sections, who is signed in, and the way out. */
export function appHeader({ session, navigate, onSignedOut }: ScreenContext, current: Section): HTMLElement {
  const admin = session.admin;
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
      ...SECTIONS.map(([section, path, label]) =>
        navLink(navigate, path, { class: 'section-link', 'aria-current': section === current ? 'page' : null }, label),
      ),
    ),
    h(
      'div',
      { class: 'who' },
      admin ? h('span', { class: 'who-email', title: admin.name || admin.email }, admin.email) : null,
      logout,
    ),
  );
}
