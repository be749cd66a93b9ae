import type { AuditEvent, AuditRecord } from '../audit/audit-event.ts';
import type { SealedText } from '../secrets/secret.ts';
import { token } from '../shared/token.ts';
import type { WebhookDelivery } from './webhook-delivery.ts';
import type { WebhookEventType } from './webhook-events.ts';

/** A delivery as the dispatcher (or a test event) makes it: pending, due at once. */
export interface NewWebhookDelivery {
  readonly id: string;
  readonly webhookId: string;
  readonly seq: number | null;
  readonly eventType: WebhookEventType;
  readonly payload: string;
  readonly created: Date;
}

/** An endpoint as the dispatcher sees it: where it stands in the trail and what it listens to. */
export interface DispatchTarget {
  readonly id: string;
  readonly events: readonly string[];
}

/**
 * What turns a batch of events into the deliveries of one endpoint: pure and synchronous, so a
 * store runs it inside its transaction. It may take only the first `read` events (one at least,
 * to bound the deliveries one transaction holds); the store moves past those alone.
 */
export type DeliveryMapper = (
  target: DispatchTarget,
  events: readonly AuditEvent[],
) => { deliveries: NewWebhookDelivery[]; read: number };

/**
 * The share of one instance's attempts an endpoint may hold: a claim leaves each endpoint at most
 * `max` in flight, those of `inFlight` included, so a receiver that hangs holds `max` slots at
 * most and the others' deliveries take the rest.
 */
export interface EndpointShare {
  readonly max: number;
  /** Attempts in flight on this instance, per endpoint id (an endpoint not named has none). */
  readonly inFlight: ReadonlyMap<string, number>;
}

/** How many more attempts of endpoint `webhookId` a claim may take under `share`. */
export const endpointRoom = (share: EndpointShare, webhookId: string): number =>
  Math.max(0, share.max - (share.inFlight.get(webhookId) ?? 0));

/** The room of each endpoint `share` names (every other endpoint's is `share.max`). */
export const endpointRooms = (share: EndpointShare): Record<string, number> =>
  Object.fromEntries([...share.inFlight.keys()].map((id) => [id, endpointRoom(share, id)]));

/** A delivery claimed for one attempt, with what sending it needs. */
export interface ClaimedWebhookDelivery {
  readonly id: string;
  readonly webhookId: string;
  readonly url: string;
  readonly eventType: WebhookEventType;
  readonly payload: string;
  /** Attempts after the claim: the claim's name (settling changes the delivery only while no later claim took it). */
  readonly attempt: number;
  /** The endpoint's secret, and its previous one while that still signs (24 h after a rotation). */
  readonly secrets: readonly SealedText[];
  readonly created: Date;
}

/** How an attempt ended, as the worker records it. */
export interface WebhookAttemptOutcome {
  /** Next attempt's time for `pending`; null when settled. */
  readonly status: 'pending' | 'succeeded' | 'failed';
  readonly nextAttempt: Date | null;
  readonly responseStatus: number | null;
  readonly error: string | null;
  readonly durationMs: number;
  readonly at: Date;
  /** The endpoint answered 410 Gone: disable it (`gone`). */
  readonly gone: boolean;
}

/** An attempt's claim and how it ended. */
export interface WebhookSettlement {
  readonly claim: Pick<ClaimedWebhookDelivery, 'id' | 'attempt' | 'webhookId'>;
  readonly outcome: WebhookAttemptOutcome;
}

export interface WebhookDeliveryPage {
  /** Newest first. */
  deliveries: WebhookDelivery[];
  total: number;
}

/**
 * The deliveries of webhooks: made from the audit trail by the dispatcher, claimed and settled
 * by the workers of every instance, each attempt by one of them.
 */
export interface WebhookDeliveryRepository {
  /** The enabled endpoints: what the dispatcher walks. */
  dispatchTargets(): Promise<DispatchTarget[]>;
  /**
   * In one transaction: reads up to `limit` audit events after endpoint `webhookId`'s cursor,
   * inserts the deliveries `map` makes of them (one already there is left as it is) and moves
   * the cursor past them, so a crash redoes a batch and never skips one. One dispatcher at a time
   * per endpoint across every instance (another holding it: 0 at once). Answers the events read.
   */
  dispatch(webhookId: string, limit: number, map: DeliveryMapper): Promise<number>;
  /**
   * Claims up to `limit` pending deliveries due at `now` of enabled endpoints (a lease that ran
   * out is due again), each until `leaseUntil`, with one more attempt, oldest due first, and of
   * each endpoint no more than its room under `share`. Claims on any instances never share a
   * delivery.
   */
  claim(now: Date, leaseUntil: Date, limit: number, share: EndpointShare): Promise<ClaimedWebhookDelivery[]>;
  /**
   * Records the outcomes of a round's attempts, in one transaction, and their endpoints': a
   * success clears `failing_since`, a failure sets it if unset and disables the endpoint
   * (`failing`) once it is older than `failingBefore`, a 410 disables it (`gone`). Answers, for
   * each, whether it was recorded: false, nothing written, when a later claim took it over.
   */
  settle(settlements: readonly WebhookSettlement[], failingBefore: Date): Promise<boolean[]>;
  /** Inserts one delivery (a test event), due at once. */
  enqueue(delivery: NewWebhookDelivery): Promise<void>;
  list(webhookId: string, query: { page: number; size: number }): Promise<WebhookDeliveryPage>;
  /**
   * Makes delivery `id` of `webhookId` pending and due at `now` again, its id kept, with `audit`
   * in the same transaction (one in flight is left to its attempt). False when there is none.
   */
  replay(webhookId: string, id: string, now: Date, audit: AuditRecord): Promise<boolean>;
  /**
   * Delivers again every event from place `since` up to the endpoint's cursor: the deliveries
   * there become pending and due at `now`; events the endpoint had no delivery of get one
   * (through `map`), with `audit` in the same transaction. Answers how many were queued.
   */
  replaySince(webhookId: string, since: number, now: Date, map: DeliveryMapper, audit: AuditRecord): Promise<number>;
  /** Pending deliveries, and the age in seconds of the longest due of them (0 for none): the lag. */
  backlog(now: Date): Promise<{ pending: number; oldestDueSeconds: number }>;
}
export const WebhookDeliveryRepository = token<WebhookDeliveryRepository>('WebhookDeliveryRepository');
