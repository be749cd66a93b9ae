import { isAbort, type UserListDocument as UserPage, type UserResource } from '@uas/client';
import {
  apiPathOf,
  locationSearchOf,
  queryFromApiLink,
  queryFromLocation,
  sameQuery,
  type ListQuery,
} from '../state/list-query';
import { paths } from '../state/routes';
import { confirmAction } from '../ui/confirm-dialog';
import { h } from '../ui/dom';
import { errorState } from '../ui/error-state';
import { toast } from '../ui/toast';
import { appHeader } from './app-header';
import { paginationBar } from './pagination-bar';
import { searchBox } from './search-box';
import { openImportDialog } from './import-dialog';
import { openUserForm } from './user-form-dialog';
import { usersTable, type RowActions } from './users-table';
import type { ScreenContext, View } from './view';

/** The users page: search, table, pagination, and the actions on each user. */
export function usersView(context: ScreenContext): View {
  const { users, navigate, can } = context;
  let query = queryFromLocation(location.search);
  let inFlight: AbortController | null = null;

  const heading = h('h1', { tabindex: -1 }, 'Users');
  const create = h('button', { type: 'button', class: 'button primary' }, 'New user');
  const exportButton = h(
    'button',
    { type: 'button', class: 'button', title: 'Download the users shown as NDJSON (without password hashes)' },
    'Export',
  );
  const importButton = h('button', { type: 'button', class: 'button' }, 'Import…');
  const search = searchBox(query.search, (term) => go({ ...query, search: term, page: 1 }, 'push'));
  const status = h('div', { class: 'list-status', role: 'status' });
  const table = usersTable(navigate);
  const pager = paginationBar({
    follow: (link, target) => go(target, 'push', link),
    resize: (size) => go({ ...query, size, page: 1 }, 'push'),
  });
  const results = h(
    'section',
    { class: 'results', 'aria-labelledby': 'users-title', hidden: true },
    h('div', { class: 'table-wrap' }, table.element),
    pager.element,
  );
  heading.id = 'users-title';

  const actions: RowActions = {
    edit: (user) => void openUserForm({ users, userId: user.id, onSaved: saved('Saved') }),
    toggleActive: (user, button) => void toggleActive(user, button),
    remove: (user) => void remove(user),
  };
  create.addEventListener('click', () => void openUserForm({ users, onSaved: (user) => void showCreated(user) }));
  exportButton.addEventListener('click', () => void exportUsers());
  importButton.addEventListener('click', () => void openImportDialog({ users, onImported: () => void load() }));

  /** Downloads the users of the current search through a link to the file's bytes. */
  async function exportUsers(): Promise<void> {
    exportButton.setAttribute('aria-disabled', 'true');
    try {
      const { blob, filename } = await users.exportFile(query.search);
      const url = URL.createObjectURL(blob);
      const link = h('a', { href: url, download: filename ?? 'users.ndjson', hidden: true });
      document.body.append(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(url), 0);
    } catch (error) {
      toast((error as Error).message, 'error');
    } finally {
      exportButton.removeAttribute('aria-disabled');
    }
  }

  function go(next: ListQuery, mode: 'push' | 'replace', apiPath?: string): void {
    query = next;
    const url = `${paths.users}${locationSearchOf(next)}`;
    if (url !== location.pathname + location.search) history[`${mode}State`](null, '', url);
    search.setValue(next.search);
    void load(apiPath);
  }

  async function load(apiPath = apiPathOf(query)): Promise<void> {
    inFlight?.abort();
    const mine = new AbortController();
    inFlight = mine;
    setLoading(true);
    try {
      const page = await users.list(apiPath, mine.signal);
      if (inFlight !== mine) return;
      const last = queryFromApiLink(page.links.last);
      if (page.data.length === 0 && last && last.page < query.page) {
        go(last, 'replace', page.links.last ?? undefined);
        return;
      }
      show(page);
    } catch (error) {
      if (isAbort(error) || inFlight !== mine) return;
      showError(error);
    } finally {
      if (inFlight === mine) setLoading(false);
    }
  }

  function setLoading(loading: boolean): void {
    results.setAttribute('aria-busy', String(loading));
    if (loading && results.hidden) status.replaceChildren(h('p', { class: 'loading' }, 'Loading users…'));
  }

  function show(page: UserPage): void {
    table.show(page.data, can('users.write') ? actions : null);
    pager.show(page, query);
    results.hidden = page.meta.total === 0;
    status.replaceChildren(...(page.meta.total === 0 ? [emptyState()] : []));
  }

  function emptyState(): HTMLElement {
    return query.search
      ? h('div', { class: 'empty' }, h('p', {}, `No users match “${query.search}”.`))
      : h(
          'div',
          { class: 'empty' },
          h('p', {}, 'No users yet.'),
          h('p', { class: 'muted' }, 'Create the first one with “New user”.'),
        );
  }

  function showError(error: unknown): void {
    results.hidden = true;
    status.replaceChildren(errorState('Could not load users', error, () => void load()));
  }

  function saved(verb: string): (user: UserResource) => void {
    return (user) => {
      toast(`${verb} ${user.attributes.email}.`);
      void load();
    };
  }

  /** The newest user is the last of the unfiltered list: go to its page, so the admin sees it. */
  async function showCreated(user: UserResource): Promise<void> {
    toast(`Created ${user.attributes.email}.`);
    const unfiltered = { ...query, search: '', page: 1 };
    try {
      const { links } = await users.list(apiPathOf(unfiltered));
      go(queryFromApiLink(links.last) ?? unfiltered, 'push');
    } catch {
      go(unfiltered, 'push');
    }
  }

  async function toggleActive(user: UserResource, button: HTMLButtonElement): Promise<void> {
    if (button.getAttribute('aria-disabled') === 'true') return;
    const active = user.attributes.active === 1 ? 0 : 1;
    // aria-disabled rather than disabled, so keyboard focus stays on the button.
    button.setAttribute('aria-disabled', 'true');
    try {
      await users.update(user.id, { active });
      toast(`${active ? 'Activated' : 'Deactivated'} ${user.attributes.email}.`);
      await load();
    } catch (error) {
      toast((error as Error).message, 'error');
    } finally {
      button.removeAttribute('aria-disabled');
    }
  }

  async function remove(user: UserResource): Promise<void> {
    const done = await confirmAction({
      title: 'Delete user?',
      message: `${user.attributes.email} will be deleted permanently and signed out everywhere. This cannot be undone.`,
      confirmLabel: 'Delete user',
      action: () => users.remove(user.id),
    });
    if (!done) return;
    toast(`Deleted ${user.attributes.email}.`);
    await load();
    heading.focus();
  }

  const element = h(
    'div',
    { class: 'shell' },
    appHeader(context, 'users'),
    h(
      'main',
      { class: 'page' },
      h(
        'div',
        { class: 'page-head' },
        heading,
        h(
          'div',
          { class: 'page-actions' },
          can('users.import') && importButton,
          can('users.export') && exportButton,
          can('users.write') && create,
        ),
      ),
      search.element,
      status,
      results,
    ),
  );

  void load();
  return {
    element,
    onLocationChange() {
      const next = queryFromLocation(location.search);
      if (sameQuery(next, query)) return;
      query = next;
      search.setValue(next.search);
      void load();
    },
    destroy() {
      inFlight?.abort();
      search.destroy();
    },
  };
}
