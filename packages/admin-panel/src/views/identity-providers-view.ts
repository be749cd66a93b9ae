import { isAbort } from '@uas/client';
import type { IdentityProviderResource } from '../api/identity-providers-api';
import { confirmAction } from '../ui/confirm-dialog';
import { h } from '../ui/dom';
import { errorState } from '../ui/error-state';
import { toast } from '../ui/toast';
import { appHeader } from './app-header';
import { openIdentityProviderForm } from './identity-provider-form-dialog';
import type { ScreenContext, View } from './view';

/**
 * The identity providers users may sign in with (owners only): each with its kind, state and the
 * callback URL to register at the provider, with ways to add, edit and delete one. A client
 * secret is only ever typed here, never shown.
 */
export function identityProvidersView(context: ScreenContext): View {
  const { identityProviders: providers, can } = context;
  const abort = new AbortController();
  const heading = h('h1', { tabindex: -1, id: 'identity-providers-title' }, 'Sign-in providers');
  const intro = h(
    'p',
    { class: 'muted' },
    'Users may sign in with an account at these providers. Register each callback URL at its provider as the redirect URI; docs/API.md (section 14) describes every attribute.',
  );
  const create = h('button', { type: 'button', class: 'button primary' }, 'New provider');
  const listed = h('section', {
    class: 'card identity-providers-list',
    'aria-labelledby': 'providers-title',
    'aria-busy': 'true',
  });

  create.addEventListener('click', () =>
    openIdentityProviderForm({
      providers,
      onSaved: (saved) => {
        toast(`Added ${saved.attributes.slug}: register its callback URL at the provider.`);
        void load();
      },
    }),
  );

  async function load(): Promise<void> {
    const title = h('h2', { id: 'providers-title', tabindex: -1 }, 'Providers');
    listed.setAttribute('aria-busy', 'true');
    try {
      const rows = await providers.list(abort.signal);
      listed.replaceChildren(
        title,
        rows.length === 0
          ? h('p', { class: 'muted' }, 'No provider yet: users sign in with a password or a passkey only.')
          : h('div', { class: 'table-wrap' }, table(rows)),
      );
    } catch (error) {
      if (isAbort(error)) return;
      listed.replaceChildren(
        title,
        errorState('Could not load the providers', error, () => void load()),
      );
    } finally {
      listed.setAttribute('aria-busy', 'false');
    }
  }

  function table(rows: readonly IdentityProviderResource[]): HTMLTableElement {
    return h(
      'table',
      { class: 'users-table identity-providers-table' },
      h('caption', { class: 'visually-hidden' }, 'Sign-in providers'),
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          ...['Slug', 'Kind', 'Client ID', 'Status', 'Callback URL'].map((c) => h('th', { scope: 'col' }, c)),
          h('th', { scope: 'col' }, h('span', { class: 'visually-hidden' }, 'Actions')),
        ),
      ),
      h('tbody', {}, ...rows.map(row)),
    );
  }

  function row(provider: IdentityProviderResource): HTMLTableRowElement {
    const { slug, kind, client_id, enabled, auto_link, callback_url, client_secret_set } = provider.attributes;
    const copy = h(
      'button',
      { type: 'button', class: 'button small', 'aria-label': `Copy the callback URL of ${slug}` },
      'Copy',
    );
    copy.addEventListener('click', async () => {
      try {
        await navigator.clipboard.writeText(callback_url);
        toast(`The callback URL of ${slug} is copied.`);
      } catch {
        toast('Could not copy; select the URL and copy it instead.', 'error');
      }
    });
    const edit = h('button', { type: 'button', class: 'button small', 'aria-label': `Edit ${slug}` }, 'Edit');
    edit.addEventListener('click', () =>
      openIdentityProviderForm({
        providers,
        editing: provider,
        onSaved: (saved) => {
          toast(`Saved ${saved.attributes.slug}.`);
          void load();
        },
      }),
    );
    const remove = h(
      'button',
      { type: 'button', class: 'button small danger-text', 'aria-label': `Delete ${slug}` },
      'Delete',
    );
    remove.addEventListener('click', () => void removeProvider(provider));
    return h(
      'tr',
      { 'data-provider-id': provider.id },
      h('td', { 'data-label': 'Slug' }, h('code', {}, slug)),
      h('td', { 'data-label': 'Kind' }, kind),
      h(
        'td',
        { 'data-label': 'Client ID', class: 'cell-url' },
        client_id,
        client_secret_set ? null : h('span', { class: 'muted cell-description' }, 'No client secret (public client)'),
      ),
      h(
        'td',
        { 'data-label': 'Status' },
        h('span', { class: `badge ${enabled ? 'on' : 'off'}` }, enabled ? 'Enabled' : 'Disabled'),
        auto_link ? h('span', { class: 'muted cell-description' }, 'Links by verified email') : null,
      ),
      h('td', { 'data-label': 'Callback URL', class: 'cell-url' }, h('code', {}, callback_url), ' ', copy),
      h('td', { class: 'cell-actions' }, edit, ' ', remove),
    );
  }

  async function removeProvider(provider: IdentityProviderResource): Promise<void> {
    const { slug } = provider.attributes;
    const done = await confirmAction({
      title: `Delete ${slug}?`,
      message: `Every user's link to ${slug} is removed with it: they sign in another way, and a user with no other way in recovers the account by email. To pause it instead, edit it and turn sign-in off.`,
      confirmLabel: 'Delete provider',
      action: () => providers.remove(provider.id),
    });
    if (!done) return;
    toast(`Deleted ${slug}.`);
    await load();
    listed.querySelector<HTMLElement>('h2')?.focus();
  }

  // Reached by its address without the role for it: say so rather than offer what the API refuses.
  const allowed = can('settings.manage');
  if (allowed) void load();
  return {
    element: h(
      'div',
      { class: 'shell' },
      appHeader(context, 'identity-providers'),
      h(
        'main',
        { class: 'page' },
        h('div', { class: 'page-head' }, heading, allowed && h('div', { class: 'page-actions' }, create)),
        ...(allowed
          ? [intro, listed]
          : [
              h(
                'p',
                { role: 'alert' },
                'Only owners manage sign-in providers. Your role is shown at the top of the page.',
              ),
            ]),
      ),
    ),
    destroy() {
      abort.abort();
    },
  };
}
