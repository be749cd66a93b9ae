import type { AuditEvent } from '../audit/audit-event.ts';
import type { JsonValue } from '../shared/json.ts';
import { sha256Hex } from '../shared/sha256.ts';
import { userOfEvent } from './webhook-events.ts';

/**
 * The id of the delivery of event `seq` to endpoint `webhookId` (of its user `userId`, for an
 * event that stands for many users: an import's): derived from them, so a dispatcher that redoes
 * a batch after a crash, or a replay, makes the same id, and the receiver sees one event.
 */
export function deliveryId(webhookId: string, seq: number, userId?: string): string {
  const key = userId === undefined ? `${webhookId}:${seq}` : `${webhookId}:${seq}:${userId}`;
  return `msg_${sha256Hex(key).slice(0, 32)}`;
}

/** The id of a test event: one of its own, from a fresh resource id. */
export const testDeliveryId = (id: string): string => `msg_${id.replaceAll('-', '')}`;

/** The user an event's body names: its id, and its version (the number in its ETag) where known. */
export interface PayloadUser {
  readonly id: string;
  readonly version: number | null;
}

/**
 * The body of event `type` made from the audit event: `data.sequence` (its place in the chain,
 * what a receiver orders by), the user it concerns with its `version` (the number in its ETag,
 * what a receiver drops a stale update by), and what changed, before and after (a password only
 * ever as `changed`, never a hash: the trail records nothing more). `user` names one of the users
 * of an event that stands for many (an import's), which records no attributes: its `changes` are empty.
 */
export function webhookPayload(type: string, event: AuditEvent, user?: PayloadUser): string {
  const changes = user === undefined ? (event.changes ?? {}) : {};
  // `user` names whose invitation or factor it is: `data.user` says it.
  const { version, user: _named, ...attributes } = changes;
  const id = userOfEvent(event);
  const subject =
    user ?? (id === null ? null : { id, version: (version?.after ?? version?.before ?? null) as number | null });
  const data: Record<string, JsonValue> = {
    sequence: event.seq,
    user: subject === null ? null : { id: subject.id, version: subject.version },
    changes: attributes as JsonValue,
    target: event.target ? { type: event.target.type, id: event.target.id } : null,
  };
  return JSON.stringify({ type, timestamp: event.time.toISOString(), data });
}

/** The body of a test event. */
export function testPayload(now: Date): string {
  return JSON.stringify({ type: 'webhook.test', timestamp: now.toISOString(), data: { sequence: null } });
}
