import type { UserListDocument as UserPage } from '@uas/client';
import { PAGE_SIZES, queryFromApiLink, type ListQuery, type PageSize } from '../state/list-query';
import { h } from '../ui/dom';

export interface PaginationHandlers {
  /** Go where one of the API's `links` points. */
  follow(link: string, query: ListQuery): void;
  resize(size: PageSize): void;
}

type LinkName = 'first' | 'prev' | 'next' | 'last';
/** Link, arrow, word (hidden on phones), accessible name. */
const BUTTONS: readonly [LinkName, string, string, string][] = [
  ['first', '«', 'First', 'First page'],
  ['prev', '‹', 'Previous', 'Previous page'],
  ['next', '›', 'Next', 'Next page'],
  ['last', '»', 'Last', 'Last page'],
];

/** Range summary, page buttons driven by the API's links, and the page-size choice. */
export function paginationBar(handlers: PaginationHandlers): {
  element: HTMLElement;
  show(page: UserPage, query: ListQuery): void;
} {
  const summary = h('p', { class: 'range', 'aria-live': 'polite' });
  const position = h('span', { class: 'position' });
  const size = h('select', { id: 'page-size', name: 'size' }, ...PAGE_SIZES.map((n) => h('option', { value: n }, n)));
  size.addEventListener('change', () => handlers.resize(Number(size.value) as PageSize));

  const links: Partial<Record<LinkName, string | null>> = {};
  const buttons = BUTTONS.map(([name, arrow, word, label]) => {
    const forward = name === 'next' || name === 'last';
    const button = h(
      'button',
      { type: 'button', class: 'button small', 'aria-label': label, 'data-link': name },
      ...(forward
        ? [h('span', { class: 'word' }, word), ' ', arrow]
        : [arrow, ' ', h('span', { class: 'word' }, word)]),
    );
    button.addEventListener('click', () => {
      const link = links[name];
      const target = queryFromApiLink(link);
      if (link && target) handlers.follow(link, target);
    });
    return { name, button };
  });
  const [first, prev, next, last] = buttons.map((b) => b.button);

  const element = h(
    'nav',
    { class: 'pagination', 'aria-label': 'Pagination' },
    summary,
    h('div', { class: 'pager' }, first, prev, position, next, last),
    h('div', { class: 'page-size' }, h('label', { for: 'page-size' }, 'Per page'), size),
  );

  return {
    element,
    show(page, query) {
      const total = page.meta.total;
      const start = (query.page - 1) * query.size;
      summary.textContent =
        page.data.length === 0
          ? `${total} ${total === 1 ? 'user' : 'users'}`
          : `Showing ${start + 1}–${start + page.data.length} of ${total}`;
      const pages = Math.max(1, Math.ceil(total / query.size));
      position.textContent = `Page ${query.page} of ${pages}`;
      size.value = String(query.size);
      for (const { name, button } of buttons) {
        links[name] = page.links[name];
        const target = queryFromApiLink(page.links[name]);
        button.disabled = target === null || target.page === query.page;
      }
    },
  };
}
