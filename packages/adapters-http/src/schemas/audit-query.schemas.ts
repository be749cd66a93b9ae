import { AUDIT_ACTIONS, isAuditAction, isStorableText, type AuditAction } from '@uas/domain';
import type { QueryParameter } from '../openapi/route-description';
import { pageParameters, parameterReader, type PageQuery } from './list-query.schemas';
import type { QueryLookup } from './query-string';

/** Longest id `filter[target]` and `filter[actor]` accept: far beyond any id the service makes. */
const FILTER_ID_MAX_LENGTH = 200;
/** What `filter[actor]` says for events of the service itself. */
const SYSTEM_ACTOR_FILTER = 'system';

/**
 * ISO 8601: a date, or a date and time (seconds and fraction optional) with `Z` or an offset.
 * A time without a zone would mean a different instant on every server, so it is refused.
 */
const ISO_8601 = /^\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:\d{2}))?$/;

export interface AuditListQuery extends PageQuery {
  /** The filters as sent, repeated in the page links. */
  filters: {
    'filter[target]'?: string;
    'filter[actor]'?: string;
    'filter[action]'?: string;
    'filter[since]'?: string;
    'filter[until]'?: string;
  };
  targetId?: string;
  /** null: events of the system. */
  actorId?: string | null;
  action?: AuditAction;
  since?: Date;
  until?: Date;
}

/** The query string of GET /v1/admin/audit-events as the typed client sends it. */
export type AuditQueryInput = Partial<Record<'page[number]' | 'page[size]' | keyof AuditListQuery['filters'], string>>;

/** The instant `text` names, or null; a day the calendar lacks (02-30) is refused, not rolled over. */
function instant(text: string): Date | null {
  if (!ISO_8601.test(text)) return null;
  const date = new Date(text);
  const [year, month, day] = text.slice(0, 10).split('-').map(Number) as [number, number, number];
  const calendar = new Date(Date.UTC(year, month - 1, day));
  const exists = calendar.getUTCMonth() === month - 1 && calendar.getUTCDate() === day;
  return exists && !Number.isNaN(date.getTime()) ? date : null;
}

const TIME_FORMS = 'ISO 8601: a date (2026-11-21, midnight UTC) or a time with a zone (2026-11-21T10:00:00Z).';

/** The parameters parseAuditQuery reads, as the API document describes them. */
export const AUDIT_QUERY_PARAMETERS: readonly QueryParameter[] = [
  ...pageParameters('Events'),
  {
    name: 'filter[target]',
    description: 'Only events whose target has this id (a user, an admin, a signing key).',
    schema: { type: 'string', minLength: 1, maxLength: FILTER_ID_MAX_LENGTH },
  },
  {
    name: 'filter[actor]',
    description: `Only events by the account with this id; \`${SYSTEM_ACTOR_FILTER}\` for the service's own.`,
    schema: { type: 'string', minLength: 1, maxLength: FILTER_ID_MAX_LENGTH },
  },
  { name: 'filter[action]', description: 'Only events of this action.', schema: { enum: [...AUDIT_ACTIONS] } },
  {
    name: 'filter[since]',
    description: `Only events at or after this instant. ${TIME_FORMS}`,
    schema: { type: 'string' },
  },
  { name: 'filter[until]', description: `Only events before this instant. ${TIME_FORMS}`, schema: { type: 'string' } },
];

/** Reads paging and the five filters; each bad value is one 400 problem naming its parameter. */
export function parseAuditQuery(queries: QueryLookup): AuditListQuery {
  const reader = parameterReader(queries);
  const page = reader.page();
  const filters: AuditListQuery['filters'] = {};
  const query: AuditListQuery = { ...page, filters };
  const bad = (parameter: string, detail: string) =>
    reader.problems.push({ parameter, detail: `${parameter} ${detail}` });

  const id = (parameter: 'filter[target]' | 'filter[actor]'): string | undefined => {
    const value = reader.single(parameter);
    if (value === undefined) return undefined;
    if (value === '' || value.length > FILTER_ID_MAX_LENGTH || !isStorableText(value)) {
      bad(parameter, `must be an id of 1 to ${FILTER_ID_MAX_LENGTH} characters`);
      return undefined;
    }
    filters[parameter] = value;
    return value;
  };
  const time = (parameter: 'filter[since]' | 'filter[until]'): Date | undefined => {
    const value = reader.single(parameter);
    if (value === undefined) return undefined;
    const date = instant(value);
    if (!date) {
      bad(parameter, 'must be an ISO 8601 date (2026-11-21) or time with a zone (2026-11-21T10:00:00Z)');
      return undefined;
    }
    filters[parameter] = value;
    return date;
  };

  const targetId = id('filter[target]');
  if (targetId !== undefined) query.targetId = targetId;
  const actor = id('filter[actor]');
  if (actor !== undefined) query.actorId = actor === SYSTEM_ACTOR_FILTER ? null : actor;
  const action = reader.single('filter[action]');
  if (action !== undefined) {
    if (isAuditAction(action)) {
      query.action = action;
      filters['filter[action]'] = action;
    } else {
      bad('filter[action]', `must be one of ${AUDIT_ACTIONS.join(', ')}`);
    }
  }
  const since = time('filter[since]');
  const until = time('filter[until]');
  if (since) query.since = since;
  if (until) query.until = until;
  if (since && until && since.getTime() > until.getTime()) bad('filter[until]', 'must not be before filter[since]');
  reader.done();
  return query;
}
