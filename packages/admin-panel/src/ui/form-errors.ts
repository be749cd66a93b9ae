import { ApiError, type ApiErrorObject } from '@uas/client';
import { h } from './dom';
import { wordsFor } from './error-words';
import type { Field } from './field';

/**
 * Shows errors where they belong: each API error at the field its `source.pointer` names
 * (`/data/attributes/<name>…`), anything else at the top of the form.
 */
export class FormErrors {
  readonly element = h('div', { class: 'form-error', role: 'alert', hidden: true });

  constructor(private readonly fields: Readonly<Record<string, Field>>) {}

  clear(): void {
    for (const f of Object.values(this.fields)) f.setError(null);
    this.showForm([]);
  }

  /** Shows local problems keyed by field name; returns true when there were any. */
  showProblems(problems: Readonly<Record<string, string>>): boolean {
    const names = Object.keys(problems);
    for (const name of names) this.fields[name]?.setError(problems[name] ?? null);
    this.#focusFirst(names);
    return names.length > 0;
  }

  /** Shows the errors of a failed call: per field when pointed, otherwise at form level. */
  showError(error: unknown): void {
    if (!(error instanceof ApiError)) {
      this.showForm(['Something went wrong. Please try again.']);
      return;
    }
    const byField = new Map<string, string[]>();
    const general: string[] = [];
    for (const item of error.errors.length ? error.errors : [{ title: error.message }]) {
      const name = attributeOf(item);
      if (name && this.fields[name]) byField.set(name, [...(byField.get(name) ?? []), messageOf(item)]);
      else general.push(messageOf(item));
    }
    for (const [name, messages] of byField) this.fields[name]?.setError(messages.join(' '));
    this.showForm(general);
    this.#focusFirst([...byField.keys()]);
  }

  showForm(messages: string[]): void {
    this.element.replaceChildren(...messages.map((m) => h('p', {}, m)));
    this.element.hidden = messages.length === 0;
  }

  #focusFirst(names: string[]): void {
    const order = Object.keys(this.fields);
    const first = names.sort((a, b) => order.indexOf(a) - order.indexOf(b))[0];
    if (first) this.fields[first]?.control.focus();
  }
}

/** The words of a failed call's errors, for a place that is no form (a row's control, say). */
export function errorText(error: unknown): string {
  if (!(error instanceof ApiError)) return 'Something went wrong. Please try again.';
  return (error.errors.length ? error.errors : [{ title: error.message }]).map(messageOf).join(' ');
}

function attributeOf(item: ApiErrorObject): string | null {
  const pointer = item.source && 'pointer' in item.source ? item.source.pointer : '';
  // A JSON:API document names `/data/attributes/<name>`; a plain JSON body (a ban's) names `/<name>`.
  const match = /^(?:\/data\/attributes)?\/([^/]+)/.exec(pointer);
  return match?.[1] ?? null;
}

function messageOf(item: ApiErrorObject): string {
  return wordsFor(item.code) || item.detail || item.title || 'Invalid value.';
}
