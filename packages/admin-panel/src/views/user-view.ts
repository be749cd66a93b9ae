import { ApiError, isAbort } from '@uas/client';
import type { AdminUser } from '../api/users-api';
import type { LoginSessionResource } from '../api/account-api';
import type { IdentityResource } from '../api/identity-providers-api';
import { auditApiPathOf, auditLocationSearchOf, type AuditQuery } from '../state/audit-query';
import { paths } from '../state/routes';
import { confirmAction } from '../ui/confirm-dialog';
import { h } from '../ui/dom';
import { errorState } from '../ui/error-state';
import { formatTimestamp } from '../ui/format';
import { navLink } from '../ui/nav-link';
import { toast } from '../ui/toast';
import { appHeader } from './app-header';
import { auditTable } from './audit-table';
import { identityTable } from './identity-table';
import { openBanDialog } from './ban-dialog';
import { openImpersonation } from './impersonation-dialog';
import { openUserForm } from './user-form-dialog';
import type { ScreenContext, View } from './view';

const TRAIL_SIZE = 10;

/** One user: their attributes and an edit action, where they are signed in, and what happened to them. */
export function userView(context: ScreenContext, userId: string): View {
  const { users, accounts, identityProviders, navigate, can } = context;
  const abort = new AbortController();
  const heading = h('h1', { tabindex: -1 }, 'User');
  const edit = h('button', { type: 'button', class: 'button primary', disabled: true }, 'Edit');
  const recover = h('button', { type: 'button', class: 'button', disabled: true }, 'Send recovery link');
  const verify = h('button', { type: 'button', class: 'button', hidden: true }, 'Resend verification');
  const ban = h('button', { type: 'button', class: 'button danger', hidden: true }, 'Ban…');
  const unban = h('button', { type: 'button', class: 'button', hidden: true }, 'Unban');
  const impersonate = h('button', { type: 'button', class: 'button', disabled: true }, 'Impersonate…');
  let loaded: AdminUser | null = null;
  const details = h('section', { class: 'card', 'aria-labelledby': 'details-title', 'aria-busy': 'true' });
  const sessions = h('section', { class: 'card', 'aria-labelledby': 'sessions-title', 'aria-busy': 'true' });
  const trail = h('section', { class: 'card', 'aria-labelledby': 'trail-title', 'aria-busy': 'true' });
  const identities = h('section', { class: 'card', 'aria-labelledby': 'identities-title', 'aria-busy': 'true' });
  const trailQuery: AuditQuery = { target: userId, actor: '', action: '', since: '', until: '', page: 1 };

  edit.addEventListener('click', () =>
    openUserForm({
      users,
      userId,
      onSaved: (user) => {
        toast(`Saved ${user.attributes.email}.`);
        void loadAll();
      },
    }),
  );

  // Each queues a message (subject to the send limits): the Mail page shows it, and the trail its event.
  recover.addEventListener(
    'click',
    () => void mailUser(recover, () => users.sendRecovery(userId), 'A recovery link is queued for'),
  );
  verify.addEventListener(
    'click',
    () => void mailUser(verify, () => users.resendVerification(userId), 'A verification link is queued for'),
  );

  ban.addEventListener('click', async () => {
    if (!loaded) return;
    const banned = await openBanDialog(users, loaded);
    if (!banned) return;
    toast(`${banned.attributes.email} is banned.`);
    await loadAll();
    unban.focus();
  });
  unban.addEventListener('click', async () => {
    const done = await confirmAction({
      title: 'Lift the ban?',
      message: `${heading.textContent} may sign in again at once.`,
      confirmLabel: 'Unban',
      action: async () => void (await users.unban(userId)),
    });
    if (!done) return;
    toast(`${heading.textContent} is no longer banned.`);
    await Promise.all([loadUser(), loadTrail()]);
    // The button gave way to "Ban…": focus follows, rather than falling to the page.
    ban.focus();
  });
  impersonate.addEventListener('click', () => {
    if (loaded)
      void openImpersonation(context, loaded, () => {
        void Promise.all([loadSessions(), loadTrail()]);
      });
  });

  async function mailUser(button: HTMLButtonElement, send: () => Promise<void>, done: string): Promise<void> {
    if (button.getAttribute('aria-disabled') === 'true') return;
    button.setAttribute('aria-disabled', 'true');
    try {
      await send();
      toast(`${done} ${heading.textContent}.`);
      await loadTrail();
    } catch (error) {
      toast((error as Error).message, 'error');
    } finally {
      button.removeAttribute('aria-disabled');
    }
  }

  async function loadAll(): Promise<void> {
    await Promise.all([loadUser(), loadSessions(), loadIdentities(), loadTrail()]);
  }

  async function loadIdentities(): Promise<void> {
    await section(identities, 'identities-title', 'Sign-in providers', async () => {
      const listed = await identityProviders.identitiesOf(userId, abort.signal);
      if (listed.length === 0) return [h('p', { class: 'muted' }, 'No account at a sign-in provider is linked.')];
      return [identityTable(listed, can('users.write') ? unlinkIdentity : null)];
    });
  }

  async function unlinkIdentity(identity: IdentityResource): Promise<void> {
    const { provider, subject } = identity.attributes;
    const done = await confirmAction({
      title: `Unlink ${provider}?`,
      message: `${heading.textContent} will no longer sign in with the ${provider} account ${subject}. The last way in of an account cannot be unlinked.`,
      confirmLabel: 'Unlink',
      action: () => identityProviders.unlink(userId, identity.id),
    });
    if (!done) return;
    toast(`Unlinked ${provider}.`);
    await Promise.all([loadIdentities(), loadTrail()]);
    identities.querySelector<HTMLElement>('h2')?.focus();
  }

  async function loadUser(): Promise<void> {
    await section(details, 'details-title', 'Details', async () => {
      const user = await users.get(userId);
      loaded = user;
      heading.textContent = user.attributes.email;
      document.title = `${user.attributes.email} · Admin`;
      edit.disabled = false;
      recover.disabled = false;
      impersonate.disabled = false;
      ban.hidden = user.attributes.banned;
      unban.hidden = !user.attributes.banned;
      // Only an address not verified yet has something to verify.
      verify.hidden = user.attributes.email_verified !== null;
      return [attributeList(user)];
    });
  }

  async function loadSessions(): Promise<void> {
    await section(sessions, 'sessions-title', 'Sessions', async () => {
      const listed = await accounts.sessions(userId, abort.signal);
      if (listed.length === 0) return [h('p', { class: 'muted' }, 'Not signed in anywhere.')];
      if (!can('sessions.end')) return [sessionTable(listed)];
      const endAll = h('button', { type: 'button', class: 'button small danger' }, 'End all sessions');
      endAll.addEventListener('click', () => void endAllSessions());
      return [sessionTable(listed), h('div', { class: 'card-actions' }, endAll)];
    });
  }

  async function loadTrail(): Promise<void> {
    // Support may act on a user without reading the audit log: their page has no trail.
    if (!can('audit.read')) return;
    await section(trail, 'trail-title', 'Audit trail', async () => {
      const page = await accounts.auditEvents(auditApiPathOf(trailQuery, TRAIL_SIZE), abort.signal);
      const all = navLink(navigate, `${paths.audit}${auditLocationSearchOf(trailQuery)}`, {}, 'Open in the audit log');
      if (page.data.length === 0) return [h('p', { class: 'muted' }, 'Nothing recorded yet.')];
      const more = page.meta.total > page.data.length ? ` (latest ${page.data.length} of ${page.meta.total})` : '';
      return [h('div', { class: 'table-wrap' }, auditTable(page.data, navigate)), h('p', {}, all, more)];
    });
  }

  /** Fills a card: its heading, then what `load` answers, or the error with a way to try again. */
  async function section(
    card: HTMLElement,
    id: string,
    title: string,
    load: () => Promise<(HTMLElement | string)[]>,
  ): Promise<void> {
    const titled = h('h2', { id, tabindex: -1 }, title);
    card.setAttribute('aria-busy', 'true');
    try {
      card.replaceChildren(titled, ...(await load()));
    } catch (error) {
      if (isAbort(error)) return;
      if (error instanceof ApiError && error.status === 404 && card === details) {
        heading.textContent = 'User not found';
        card.replaceChildren(
          titled,
          h('p', { role: 'alert' }, 'No user with this id exists; it may have been deleted.'),
        );
        return;
      }
      card.replaceChildren(
        titled,
        errorState(`Could not load the ${title.toLowerCase()}`, error, () => void section(card, id, title, load)),
      );
    } finally {
      card.setAttribute('aria-busy', 'false');
    }
  }

  function sessionTable(listed: readonly LoginSessionResource[]): HTMLElement {
    return h(
      'div',
      { class: 'table-wrap' },
      h(
        'table',
        { class: 'sessions-table' },
        h('caption', { class: 'visually-hidden' }, 'Live sessions'),
        h(
          'thead',
          {},
          h(
            'tr',
            {},
            ...['Signed in', 'Last used', 'Expires', 'Address', 'Browser'].map((c) => h('th', { scope: 'col' }, c)),
            h('th', { scope: 'col' }, h('span', { class: 'visually-hidden' }, 'Actions')),
          ),
        ),
        h('tbody', {}, ...listed.map(sessionRow)),
      ),
    );
  }

  function sessionRow(session: LoginSessionResource): HTMLTableRowElement {
    const { created, last_used, expires, client_address, user_agent, impersonated_by } = session.attributes;
    // A session an admin opened as the user (support): said so, as the user's own list says it.
    const impersonation =
      impersonated_by &&
      h('span', { class: 'badge role', title: `Opened by the admin ${impersonated_by}` }, 'Impersonation');
    const end = h(
      'button',
      {
        type: 'button',
        class: 'button small danger-text',
        'aria-label': `End the session from ${client_address ?? 'an unknown address'} signed in ${formatTimestamp(created).text}`,
      },
      'End session',
    );
    end.addEventListener('click', () => void endSession(session, end));
    return h(
      'tr',
      { 'data-session-id': session.id },
      time('Signed in', created),
      time('Last used', last_used),
      time('Expires', expires),
      h('td', { 'data-label': 'Address' }, client_address ?? h('span', { class: 'muted' }, 'unknown')),
      h(
        'td',
        { 'data-label': 'Browser', class: 'cell-agent', title: user_agent ?? '' },
        impersonation || user_agent || h('span', { class: 'muted' }, 'unknown'),
      ),
      h('td', { class: 'cell-actions' }, can('sessions.end') && end),
    );
  }

  async function endSession(session: LoginSessionResource, button: HTMLButtonElement): Promise<void> {
    if (button.getAttribute('aria-disabled') === 'true') return;
    button.setAttribute('aria-disabled', 'true');
    try {
      await accounts.endSession(userId, session.id);
      toast('Session ended.');
      await Promise.all([loadSessions(), loadTrail()]);
      // The button is gone with its row: keyboard focus goes back to the section it was in.
      sessions.querySelector<HTMLElement>('h2')?.focus();
    } catch (error) {
      toast((error as Error).message, 'error');
      button.removeAttribute('aria-disabled');
    }
  }

  async function endAllSessions(): Promise<void> {
    const done = await confirmAction({
      title: 'End all sessions?',
      message: `${heading.textContent} will be signed out everywhere: every refresh and access token stops working at once.`,
      confirmLabel: 'End all sessions',
      action: () => accounts.endAllSessions(userId),
    });
    if (!done) return;
    toast('Every session ended.');
    await Promise.all([loadSessions(), loadTrail()]);
  }

  void loadAll();
  return {
    element: h(
      'div',
      { class: 'shell' },
      appHeader(context, 'users'),
      h(
        'main',
        { class: 'page' },
        h('p', { class: 'breadcrumb' }, navLink(navigate, paths.users, {}, '← Users')),
        h(
          'div',
          { class: 'page-head' },
          heading,
          h(
            'div',
            { class: 'page-actions' },
            ...(can('users.message') ? [verify, recover] : []),
            ...(can('users.impersonate') ? [impersonate] : []),
            ...(can('users.ban') ? [unban, ban] : []),
            can('users.write') && edit,
          ),
        ),
        h('div', { class: 'user-page' }, details, sessions, identities, can('audit.read') && trail),
      ),
    ),
    destroy() {
      abort.abort();
    },
  };
}

function attributeList(user: AdminUser): HTMLElement {
  const {
    name,
    email,
    email_verified,
    active,
    banned,
    banned_until,
    ban_reason,
    metadata,
    app,
    created,
    updated,
    last_login,
    recent_failed_logins,
  } = user.attributes;
  const rows: [string, Node | string][] = [
    ['Name', name || '—'],
    ['Email', email],
    ['Email verified', email_verified ? stamp(email_verified) : h('span', { class: 'badge off' }, 'Not verified')],
    ['Status', h('span', { class: `badge ${active === 1 ? 'on' : 'off'}` }, active === 1 ? 'Active' : 'Inactive')],
    ['Banned', banned ? h('span', { class: 'badge off' }, 'Banned') : 'No'],
    ...(banned
      ? ([
          ['Banned until', banned_until ? stamp(banned_until) : 'Until unbanned'],
          ['Ban reason', ban_reason ?? '—'],
        ] as [string, Node | string][])
      : []),
    ['Last login', last_login ? stamp(last_login) : 'Never'],
    ['Failed logins (recent)', String(recent_failed_logins)],
    ['Created', stamp(created)],
    ['Updated', stamp(updated)],
    ['Id', h('code', {}, user.id)],
    ['Metadata', h('pre', { class: 'json' }, JSON.stringify(metadata, null, 2))],
    ['App', h('pre', { class: 'json' }, JSON.stringify(app, null, 2))],
  ];
  return h('dl', { class: 'attributes' }, ...rows.flatMap(([term, value]) => [h('dt', {}, term), h('dd', {}, value)]));
}

function stamp(iso: string): HTMLElement {
  return h('time', { datetime: iso, title: iso }, formatTimestamp(iso).text);
}

function time(label: string, iso: string): HTMLTableCellElement {
  return h('td', { 'data-label': label, class: 'cell-time' }, stamp(iso));
}
