import { ApiError } from '@uas/client';
import { h } from './dom';

/** What a failed load says, in the API's words when it gave some, with a way to try again. */
export function errorState(what: string, error: unknown, retry: () => void): HTMLElement {
  const message = error instanceof ApiError ? error.message : 'Something went wrong.';
  const again = h('button', { type: 'button', class: 'button small', on: { click: retry } }, 'Try again');
  return h('div', { class: 'error-state', role: 'alert' }, h('p', {}, `${what}: ${message}`), again);
}
