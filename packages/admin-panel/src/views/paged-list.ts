import { isAbort } from '@uas/client';
import { h } from '../ui/dom';
import { errorState } from '../ui/error-state';

/** The page a list view's URL names (`?page=N`), the first when none. */
const pageOf = (search: string): number => Math.max(1, Number(new URLSearchParams(search).get('page')) || 1);

/** What a list endpoint answers, as far as paging goes. */
interface ListPage {
  meta: { total: number };
  links: { prev?: string | null; next?: string | null };
}

export interface PagedListOptions<T extends ListPage> {
  /** The view's path: the page past the first is its `?page=N`, so Back and reload keep it. */
  path: string;
  /** Says when the list loads, fails or is empty. */
  status: HTMLElement;
  /** Holds a loaded page: what `render` makes of it, then the pager. */
  results: HTMLElement;
  text: { loading: string; failure: string; empty: string; previous: string; next: string };
  fetch(page: number, signal: AbortSignal): Promise<T>;
  render(loaded: T): Node[];
  /** The pager's words for the count and the page (`12 pending · page 2`). */
  range(total: number, page: number): string;
}

/**
 * A paged list of a panel view (the outbox, the pending invitations): loads the page the URL
 * names, one request at a time (a newer one aborts the older), shows it with a pager, and says
 * when it is loading, empty or failed, with a retry.
 */
export function pagedList<T extends ListPage>(options: PagedListOptions<T>) {
  const { path, status, results, text } = options;
  let page = pageOf(location.search);
  let inFlight: AbortController | null = null;

  async function load(): Promise<void> {
    inFlight?.abort();
    const mine = new AbortController();
    inFlight = mine;
    if (results.hidden) status.replaceChildren(h('p', { class: 'loading' }, text.loading));
    try {
      const loaded = await options.fetch(page, mine.signal);
      if (inFlight === mine) show(loaded);
    } catch (error) {
      if (isAbort(error) || inFlight !== mine) return;
      results.hidden = true;
      status.replaceChildren(errorState(text.failure, error, () => void load()));
    }
  }

  function go(next: number): void {
    page = next;
    const url = next === 1 ? path : `${path}?page=${next}`;
    if (url !== location.pathname + location.search) history.pushState(null, '', url);
    void load();
  }

  function show(loaded: T): void {
    const total = loaded.meta.total;
    results.hidden = total === 0;
    status.replaceChildren(...(total === 0 ? [h('div', { class: 'empty' }, h('p', {}, text.empty))] : []));
    const step = (label: string, link: string | null | undefined, to: number) =>
      h('button', { type: 'button', class: 'button small', disabled: !link, on: { click: () => go(to) } }, label);
    results.replaceChildren(
      ...options.render(loaded),
      h(
        'nav',
        { class: 'pagination', 'aria-label': 'Pagination' },
        h('p', { class: 'range', 'aria-live': 'polite' }, options.range(total, page)),
        h(
          'div',
          { class: 'pager' },
          step(text.previous, loaded.links.prev, page - 1),
          step(text.next, loaded.links.next, page + 1),
        ),
      ),
    );
  }

  return {
    load,
    /** Back or Forward to another page of the list. */
    onLocationChange(): void {
      const next = pageOf(location.search);
      if (next === page) return;
      page = next;
      void load();
    },
    destroy(): void {
      inFlight?.abort();
    },
  };
}
