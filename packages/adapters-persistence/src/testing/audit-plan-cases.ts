import { AUDIT_ACTIONS, type AuditFilters } from '@uas/domain';

/**
 * Actions of the seeded audit events of the plan tests. Key rotations (and the system's own events)
 * are seeded rarely, as they come in a real trail, so a filter for them must not walk the trail.
 */
export const COMMON_ACTIONS = AUDIT_ACTIONS.filter((action) => action !== 'signing_key.rotated');

/** Each listing filter the API offers, and the index that must serve it, on both databases. */
export const AUDIT_PLAN_CASES: [name: string, filters: AuditFilters, index: string][] = [
  ['no filter', {}, 'audit_events_time_idx'],
  ['filter[target]', { targetId: 'user-7' }, 'audit_events_target_idx'],
  ['filter[actor]', { actorId: 'admin-7' }, 'audit_events_actor_idx'],
  ['filter[actor]=system', { actorId: null }, 'audit_events_actor_idx'],
  ['filter[action]', { action: 'signing_key.rotated' }, 'audit_events_action_idx'],
  [
    'filter[since] and filter[until]',
    { since: new Date('2026-03-01'), until: new Date('2026-03-02') },
    'audit_events_time_idx',
  ],
  [
    'filter[target] and filter[since]',
    { targetId: 'user-7', since: new Date('2026-03-01') },
    'audit_events_target_idx',
  ],
];
