import type { AuditEvent } from '../audit/audit-event.ts';
import type { JsonValue } from '../shared/json.ts';
import { sha256Hex } from '../shared/sha256.ts';

/**
 * The id of the delivery of event `seq` to endpoint `webhookId`: derived from both, so a
 * dispatcher that redoes a batch after a crash makes the same id, and the receiver sees one event.
 */
export function deliveryId(webhookId: string, seq: number): string {
  return `msg_${sha256Hex(`${webhookId}:${seq}`).slice(0, 32)}`;
}

/** The id of a test event: one of its own, from a fresh resource id. */
export const testDeliveryId = (id: string): string => `msg_${id.replaceAll('-', '')}`;

/**
 * The body of event `type` made from the audit event: `data.sequence` (its place in the chain,
 * what a receiver orders by), the user it concerns with its `version` (the number in its ETag,
 * what a receiver drops a stale update by), and what changed, before and after (a password only
 * ever as `changed`, never a hash: the trail records nothing more).
 */
export function webhookPayload(type: string, event: AuditEvent): string {
  const changes = event.changes ?? {};
  const { version, ...attributes } = changes;
  const user = event.target?.type === 'users' ? event.target.id : null;
  const data: Record<string, JsonValue> = {
    sequence: event.seq,
    user: user === null ? null : { id: user, version: version?.after ?? version?.before ?? null },
    changes: attributes as JsonValue,
    target: event.target ? { type: event.target.type, id: event.target.id } : null,
  };
  return JSON.stringify({ type, timestamp: event.time.toISOString(), data });
}

/** The body of a test event. */
export function testPayload(now: Date): string {
  return JSON.stringify({ type: 'webhook.test', timestamp: now.toISOString(), data: { sequence: null } });
}
