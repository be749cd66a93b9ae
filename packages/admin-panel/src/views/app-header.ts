import type { Session } from '../api/session';
import { h } from '../ui/dom';
import { toast } from '../ui/toast';

/** The bar at the top of signed-in pages: who is signed in, and the way out. */
export function appHeader(session: Session, onSignedOut: () => void): HTMLElement {
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
      'div',
      { class: 'who' },
      admin ? h('span', { class: 'who-email', title: admin.name || admin.email }, admin.email) : null,
      logout,
    ),
  );
}
