/**
 * The panel's only way to build DOM. Text always goes in through text nodes and attribute
 * values through setAttribute, so data from the API can never become markup.
 */
export type Child = Node | string | number | null | undefined | false;
type Listeners = { [K in keyof HTMLElementEventMap]?: (event: HTMLElementEventMap[K]) => void };
export type Attrs = { [name: string]: string | number | boolean | null | undefined | Listeners; on?: Listeners };

export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Attrs = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (name === 'on') listen(element, value as Listeners);
    else setAttr(element, name, value as string | number | boolean | null | undefined);
  }
  element.append(...nodesOf(children));
  return element;
}

/** Sets an attribute; false, null and undefined remove it, true sets it empty. */
export function setAttr(element: Element, name: string, value: string | number | boolean | null | undefined): void {
  if (value === false || value === null || value === undefined) element.removeAttribute(name);
  else element.setAttribute(name, value === true ? '' : String(value));
}

function listen(element: HTMLElement, listeners: Listeners): void {
  for (const [type, listener] of Object.entries(listeners)) {
    element.addEventListener(type, listener as EventListener);
  }
}

function nodesOf(children: Child[]): (Node | string)[] {
  return children
    .filter((c): c is Node | string | number => c !== null && c !== undefined && c !== false)
    .map((c) => (typeof c === 'number' ? String(c) : c));
}

let nextId = 0;
/** A document-unique id for wiring labels and descriptions. */
export function uniqueId(prefix: string): string {
  nextId += 1;
  return `${prefix}-${nextId}`;
}
