import { h, type Attrs, type Child } from './dom';

/** Moves the panel to another of its paths without reloading (see App.navigate). */
export type Navigate = (path: string) => void;

/**
 * A real link (it opens in a new tab, copies, and reads as a link), followed inside the panel on
 * a plain click or Enter.
 */
export function navLink(navigate: Navigate, path: string, attrs: Attrs, ...children: Child[]): HTMLAnchorElement {
  const link = h('a', { ...attrs, href: path }, ...children);
  link.addEventListener('click', (event) => {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    navigate(path);
  });
  return link;
}
