import type { AuditEventResource } from '../api/account-api';
import { auditLocationSearchOf } from '../state/audit-query';
import { paths } from '../state/routes';
import { h } from '../ui/dom';
import { formatTimestamp } from '../ui/format';
import { navLink, type Navigate } from '../ui/nav-link';

/**
 * Audit events, newest first: when, who, what, on what, which attributes changed, from where. An
 * admin who acted links to the log of what they did, by email when `adminEmails` knows it.
 */
export function auditTable(
  events: readonly AuditEventResource[],
  navigate: Navigate,
  adminEmails: ReadonlyMap<string, string> = new Map(),
): HTMLTableElement {
  return h(
    'table',
    { class: 'audit-table' },
    h('caption', { class: 'visually-hidden' }, 'Audit events'),
    h(
      'thead',
      {},
      h('tr', {}, ...['Time', 'Actor', 'Action', 'Target', 'Changes', 'From'].map((c) => h('th', { scope: 'col' }, c))),
    ),
    h('tbody', {}, ...events.map((event) => row(event, navigate, adminEmails))),
  );
}

function row(
  { id, attributes }: AuditEventResource,
  navigate: Navigate,
  adminEmails: ReadonlyMap<string, string>,
): HTMLTableRowElement {
  const { time, actor, action, target, changes, client_address, user_agent } = attributes;
  const { text } = formatTimestamp(time);
  return h(
    'tr',
    { 'data-event-id': id },
    h('td', { 'data-label': 'Time', class: 'cell-time' }, h('time', { datetime: time, title: time }, text)),
    h('td', { 'data-label': 'Actor' }, actorCell(actor, navigate, adminEmails)),
    h('td', { 'data-label': 'Action' }, h('code', {}, action)),
    h(
      'td',
      { 'data-label': 'Target' },
      target === null
        ? h('span', { class: 'muted' }, '—')
        : target.type === 'users'
          ? navLink(navigate, paths.user(target.id), { title: target.id }, `user ${shortId(target.id)}`)
          : `${target.type} ${shortId(target.id)}`,
    ),
    h('td', { 'data-label': 'Changes' }, changes === null ? h('span', { class: 'muted' }, '—') : changeList(changes)),
    h(
      'td',
      { 'data-label': 'From', class: 'cell-from', title: user_agent ?? '' },
      client_address ?? h('span', { class: 'muted' }, '—'),
    ),
  );
}

function actorCell(
  actor: AuditEventResource['attributes']['actor'],
  navigate: Navigate,
  adminEmails: ReadonlyMap<string, string>,
): Node | string {
  if (actor.type === 'system' || actor.id === null) return actor.type;
  if (actor.type !== 'admin') return `${actor.type} ${shortId(actor.id)}`;
  const name = adminEmails.get(actor.id) ?? `admin ${shortId(actor.id)}`;
  const query = { target: '', actor: actor.id, action: '', since: '', until: '', page: 1 };
  return navLink(
    navigate,
    `${paths.audit}${auditLocationSearchOf(query)}`,
    { title: `Everything ${name} did`, class: 'actor-link' },
    name,
  );
}

function changeList(changes: NonNullable<AuditEventResource['attributes']['changes']>): HTMLElement {
  return h(
    'ul',
    { class: 'changes' },
    ...Object.entries(changes).map(([name, { before, after }]) =>
      h('li', {}, h('code', {}, name), `: ${show(before)} → ${show(after)}`),
    ),
  );
}

const show = (value: unknown): string => (typeof value === 'string' ? value : JSON.stringify(value));
const shortId = (id: string | null): string => (id ? id.slice(0, 8) : '');
