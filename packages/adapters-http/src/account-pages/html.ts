/**
 * Markup built by `html` alone: every value put into it was escaped on the way in, so a token, an
 * address or a message from anywhere can never become markup of its own.
 */
export class Html {
  constructor(readonly markup: string) {}
}

type Value = Html | readonly Html[] | string | null | undefined | false;

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text made safe inside an element or a quoted attribute value. */
export const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (character) => ESCAPES[character] ?? '');

const rendered = (value: Value): string => {
  if (value === null || value === undefined || value === false) return '';
  if (value instanceof Html) return value.markup;
  if (typeof value === 'string') return escapeHtml(value);
  return value.map((part) => part.markup).join('');
};

/** A template whose every `${value}` is escaped, unless it is itself `Html` (or a list of it). */
export function html(strings: TemplateStringsArray, ...values: Value[]): Html {
  return new Html(strings.reduce((markup, text, index) => markup + rendered(values[index - 1]) + text));
}
