import { h } from '../ui/dom';

export const DEBOUNCE_MS = 250;

/** Search by email as you type: reports the trimmed term once typing pauses, or on Enter. */
export function searchBox(
  initial: string,
  onSearch: (term: string) => void,
): {
  element: HTMLElement;
  setValue(term: string): void;
  destroy(): void;
} {
  const input = h('input', {
    type: 'search',
    id: 'user-search',
    name: 'search',
    value: initial,
    placeholder: 'name@example.com',
    autocomplete: 'off',
    spellcheck: 'false',
  });
  let timer: ReturnType<typeof setTimeout> | undefined;
  let reported = initial.trim();

  const flush = () => {
    clearTimeout(timer);
    const term = input.value.trim();
    if (term === reported) return;
    reported = term;
    onSearch(term);
  };
  input.addEventListener('input', () => {
    clearTimeout(timer);
    timer = setTimeout(flush, DEBOUNCE_MS);
  });
  const element = h(
    'form',
    { class: 'search', role: 'search' },
    h('label', { for: 'user-search' }, 'Search by email'),
    input,
  );
  element.addEventListener('submit', (event) => {
    event.preventDefault();
    flush();
  });

  return {
    element,
    setValue(term) {
      reported = term;
      if (input.value.trim() !== term) input.value = term;
    },
    destroy: () => clearTimeout(timer),
  };
}
