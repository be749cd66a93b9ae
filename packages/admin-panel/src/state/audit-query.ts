/** What the audit page shows: kept in the panel's URL and turned into API list paths. */
export interface AuditQuery {
  /** The id of the resource the events are about (a user's id). */
  target: string;
  /** The id of who acted (an admin's or a user's id). */
  actor: string;
  action: string;
  /** ISO timestamps bounding the events' time; '' for no bound. */
  since: string;
  until: string;
  page: number;
}

const AUDIT_PAGE_SIZE = 20;
const AUDIT_PATH = '/v1/admin/audit-events';
const FILTERS = ['target', 'actor', 'action', 'since', 'until'] as const;
const EMPTY: AuditQuery = { target: '', actor: '', action: '', since: '', until: '', page: 1 };

/** Reads `?target=…&actor=…&action=…&since=…&until=…&page=…`; bad values fall back to defaults. */
export function auditQueryFromLocation(search: string): AuditQuery {
  const params = new URLSearchParams(search);
  const page = Number(params.get('page'));
  const query = { ...EMPTY, page: Number.isSafeInteger(page) && page >= 1 ? page : 1 };
  for (const name of FILTERS) query[name] = (params.get(name) ?? '').trim();
  return query;
}

/** The panel URL's query string for an audit query, leaving defaults out. */
export function auditLocationSearchOf(query: AuditQuery): string {
  const params = new URLSearchParams();
  for (const name of FILTERS) if (query[name]) params.set(name, query[name]);
  if (query.page !== 1) params.set('page', String(query.page));
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** The API path that lists the events of a query, in the form of the API's own links. */
export function auditApiPathOf(query: AuditQuery, size = AUDIT_PAGE_SIZE): string {
  let path = `${AUDIT_PATH}?page[number]=${query.page}&page[size]=${size}`;
  for (const name of FILTERS) if (query[name]) path += `&filter[${name}]=${encodeURIComponent(query[name])}`;
  return path;
}

/** The audit query a link of the API points at; null when it is not an audit list path of this origin. */
export function auditQueryFromApiLink(link: string | null | undefined): AuditQuery | null {
  if (!link?.startsWith(`${AUDIT_PATH}?`)) return null;
  const params = new URLSearchParams(link.slice(AUDIT_PATH.length + 1));
  const search = new URLSearchParams();
  for (const name of FILTERS) search.set(name, params.get(`filter[${name}]`) ?? '');
  search.set('page', params.get('page[number]') ?? '1');
  return auditQueryFromLocation(search.toString());
}

export const sameAuditQuery = (a: AuditQuery, b: AuditQuery): boolean =>
  auditLocationSearchOf(a) === auditLocationSearchOf(b);
