import { isAbort } from '@uas/client';
import type { OAuthClientResource } from '../api/oauth-clients-api';
import { confirmAction } from '../ui/confirm-dialog';
import { h } from '../ui/dom';
import { errorState } from '../ui/error-state';
import { toast } from '../ui/toast';
import { appHeader } from './app-header';
import { openOAuthClientForm } from './oauth-client-form-dialog';
import { showSecretOnce } from './secret-once-dialog';
import type { ScreenContext, View } from './view';

/** Shows a confidential client's secret this once, after its creation or a rotation. */
const showClientSecret = (name: string, secret: string) =>
  showSecretOnce({
    title: 'Save the client secret',
    label: 'Client secret',
    purpose: `${name} authenticates at the token endpoint with its client ID and this secret (client_secret_basic or client_secret_post). Put it in the application's configuration.`,
    secret,
  });

/**
 * The applications that sign their users in through this service (owners only): each client with
 * its type, redirect URIs and scopes, with ways to register, edit, rotate the secret of and delete
 * one. A secret is shown once, right after it is made.
 */
export function oauthClientsView(context: ScreenContext): View {
  const { oauthClients: clients, can } = context;
  const abort = new AbortController();
  const heading = h('h1', { tabindex: -1, id: 'oauth-clients-title' }, 'Applications');
  const intro = h(
    'p',
    { class: 'muted' },
    'Applications that sign their users in here with OpenID Connect. Give each its client ID (and a confidential one its secret) and the discovery URL /.well-known/openid-configuration; docs/API.md describes every attribute.',
  );
  const create = h('button', { type: 'button', class: 'button primary' }, 'New application');
  const listed = h('section', {
    class: 'card oauth-clients-list',
    'aria-labelledby': 'oauth-clients-list-title',
    'aria-busy': 'true',
  });

  create.addEventListener('click', () =>
    openOAuthClientForm({
      clients,
      onSaved: async (saved) => {
        void load();
        const secret = 'client_secret' in saved.attributes ? saved.attributes.client_secret : null;
        if (secret) await showClientSecret(saved.attributes.name, secret);
        else toast(`Registered ${saved.attributes.name}.`);
      },
    }),
  );

  async function load(): Promise<void> {
    const title = h('h2', { id: 'oauth-clients-list-title', tabindex: -1 }, 'Registered applications');
    listed.setAttribute('aria-busy', 'true');
    try {
      const rows = await clients.list(abort.signal);
      listed.replaceChildren(
        title,
        rows.length === 0
          ? h('p', { class: 'muted' }, 'No application yet.')
          : h('div', { class: 'table-wrap' }, table(rows)),
      );
    } catch (error) {
      if (isAbort(error)) return;
      listed.replaceChildren(
        title,
        errorState('Could not load the applications', error, () => void load()),
      );
    } finally {
      listed.setAttribute('aria-busy', 'false');
    }
  }

  function table(rows: readonly OAuthClientResource[]): HTMLTableElement {
    return h(
      'table',
      { class: 'users-table oauth-clients-table' },
      h('caption', { class: 'visually-hidden' }, 'Applications'),
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          ...['Name', 'Client ID', 'Type', 'Redirect URIs', 'Scopes'].map((c) => h('th', { scope: 'col' }, c)),
          h('th', { scope: 'col' }, h('span', { class: 'visually-hidden' }, 'Actions')),
        ),
      ),
      h('tbody', {}, ...rows.map(row)),
    );
  }

  function row(client: OAuthClientResource): HTMLTableRowElement {
    const { name, client_id, type, application_type, redirect_uris, scopes, first_party } = client.attributes;
    const edit = h('button', { type: 'button', class: 'button small', 'aria-label': `Edit ${name}` }, 'Edit');
    edit.addEventListener('click', () =>
      openOAuthClientForm({
        clients,
        editing: client,
        onSaved: (saved) => {
          toast(`Saved ${saved.attributes.name}.`);
          void load();
        },
      }),
    );
    const rotate =
      type === 'confidential'
        ? h(
            'button',
            { type: 'button', class: 'button small', 'aria-label': `Rotate the secret of ${name}` },
            'Rotate secret',
          )
        : null;
    rotate?.addEventListener('click', () => void rotateSecret(client));
    const remove = h(
      'button',
      { type: 'button', class: 'button small danger-text', 'aria-label': `Delete ${name}` },
      'Delete',
    );
    remove.addEventListener('click', () => void removeClient(client));
    return h(
      'tr',
      { 'data-client-id': client.id },
      h(
        'td',
        { 'data-label': 'Name' },
        name,
        first_party ? h('span', { class: 'muted cell-description' }, 'First party: no consent asked') : null,
      ),
      h('td', { 'data-label': 'Client ID', class: 'cell-url' }, h('code', {}, client_id)),
      h('td', { 'data-label': 'Type' }, `${type}, ${application_type}`),
      h(
        'td',
        { 'data-label': 'Redirect URIs', class: 'cell-url' },
        ...redirect_uris.map((uri) => h('code', { class: 'cell-line' }, uri)),
      ),
      h('td', { 'data-label': 'Scopes' }, scopes.join(' ')),
      h('td', { class: 'cell-actions' }, edit, ' ', rotate, rotate && ' ', remove),
    );
  }

  async function rotateSecret(client: OAuthClientResource): Promise<void> {
    const { name } = client.attributes;
    let secret: string | null = null;
    const done = await confirmAction({
      title: `Rotate the secret of ${name}?`,
      message: `A new secret is made and shown once. The current one stops working at once: ${name} cannot sign anyone in until it is given the new one.`,
      confirmLabel: 'Rotate secret',
      action: async () => {
        secret = (await clients.rotateSecret(client.id)).attributes.client_secret;
      },
    });
    if (done && secret) await showClientSecret(name, secret);
  }

  async function removeClient(client: OAuthClientResource): Promise<void> {
    const { name } = client.attributes;
    const done = await confirmAction({
      title: `Delete ${name}?`,
      message: `Every user's grant to ${name} goes with it, with its tokens: it cannot sign anyone in any more.`,
      confirmLabel: 'Delete application',
      action: () => clients.remove(client.id),
    });
    if (!done) return;
    toast(`Deleted ${name}.`);
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
      appHeader(context, 'oauth-clients'),
      h(
        'main',
        { class: 'page' },
        h('div', { class: 'page-head' }, heading, allowed && h('div', { class: 'page-actions' }, create)),
        ...(allowed
          ? [intro, listed]
          : [h('p', { role: 'alert' }, 'Only owners manage applications. Your role is shown at the top of the page.')]),
      ),
    ),
    destroy() {
      abort.abort();
    },
  };
}
