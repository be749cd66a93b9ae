import { h } from './dom';
import { formatTimestamp } from './format';

/** A timestamp in local time, its exact ISO value for machines and on hover. */
export function stamp(iso: string): HTMLTimeElement {
  return h('time', { datetime: iso, title: iso }, formatTimestamp(iso).text);
}
