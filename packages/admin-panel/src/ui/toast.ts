import { h } from './dom';

const region = h('div', { class: 'toasts', role: 'status', 'aria-live': 'polite' });

/** A short note about what just happened, read out by screen readers. */
export function toast(message: string, kind: 'info' | 'error' = 'info'): void {
  if (!region.isConnected) document.body.append(region);
  const note = h('p', { class: `toast ${kind}` }, message);
  region.append(note);
  setTimeout(() => note.remove(), kind === 'error' ? 8000 : 4000);
}
