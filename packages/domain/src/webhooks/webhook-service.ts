import { SYSTEM, type AuditAction, type AuditChanges, type AuditTarget, type Initiator } from '../audit/audit-event.ts';
import { auditRecord } from '../audit/audit-records.ts';
import type { SecretBox } from '../secrets/secret-box.ts';
import { addSeconds, type Clock } from '../shared/clock.ts';
import { NotFoundError, ValidationError } from '../shared/errors.ts';
import type { IdGenerator } from '../shared/id-generator.ts';
import type { JsonValue } from '../shared/json.ts';
import {
  WEBHOOK_PREVIOUS_SECRET_SECONDS,
  type NewWebhook,
  type Webhook,
  type WebhookDraft,
  type WebhookPatch,
} from './webhook.ts';
import type { WebhookRepository } from './webhook.repository.ts';
import {
  newWebhookIssues,
  normalizeWebhookEvents,
  normalizeWebhookUrl,
  webhookAttributeIssues,
  type WebhookUrlPolicy,
} from './webhook.rules.ts';
import { generateWebhookSecret, WEBHOOK_SECRET_PURPOSE, webhookSigningSecrets } from './webhook-secrets.ts';

export interface WebhookServiceDeps {
  webhooks: WebhookRepository;
  /** The key ring: signing secrets are sealed under `webhook-secret`, the endpoint's id as context. */
  box: SecretBox;
  clock: Clock;
  ids: IdGenerator;
  /** What the operator allows of URLs (WEBHOOK_ALLOW_HTTP). */
  urls: WebhookUrlPolicy;
}

/** An endpoint with its signing secret in clear: what its creation and a rotation answer, once. */
export interface RevealedWebhook {
  readonly webhook: Webhook;
  readonly secret: string;
}

const target = (id: string): AuditTarget => ({ type: 'webhooks', id });

/** The attributes an event shows, as the API names them: never a secret. */
function shown(webhook: Webhook | null): Record<string, JsonValue> {
  if (webhook === null) return {};
  return {
    url: webhook.url,
    events: [...webhook.events],
    enabled: webhook.enabled,
    description: webhook.description,
    disabled_reason: webhook.disabledReason,
  };
}

/** What changed from `before` to `after` (null on either side: the endpoint did not exist). */
function webhookChanges(before: Webhook | null, after: Webhook | null): AuditChanges {
  const [was, is] = [shown(before), shown(after)];
  const changes: Record<string, { before: JsonValue; after: JsonValue }> = {};
  for (const name of new Set([...Object.keys(was), ...Object.keys(is)])) {
    const [from, to] = [was[name] ?? null, is[name] ?? null];
    if (JSON.stringify(from) !== JSON.stringify(to)) changes[name] = { before: from, after: to };
  }
  return changes;
}

/**
 * An admin's change of an endpoint. Enabling one starts it afresh (no failures, no reason); an
 * admin's disabling has no reason, but disabling again one the service disabled keeps its reason.
 */
export function applyWebhookPatch(current: Webhook, patch: WebhookPatch, now: Date): Webhook {
  const enabled = patch.enabled ?? current.enabled;
  return {
    ...current,
    url: patch.url === undefined ? current.url : normalizeWebhookUrl(patch.url),
    events: patch.events === undefined ? current.events : normalizeWebhookEvents(patch.events),
    enabled,
    description: patch.description ?? current.description,
    disabledReason: enabled || current.enabled ? null : current.disabledReason,
    failingSince: enabled && !current.enabled ? null : current.failingSince,
    updated: now,
  };
}

/**
 * Webhook endpoints as owners manage them. Each endpoint's signing secret is generated here,
 * answered once in clear (on creation and on each rotation), and otherwise only ever stored
 * sealed; a rotation keeps the replaced secret signing beside the new one for 24 hours, so
 * receivers can switch without losing a delivery. Every change is audited in its transaction.
 */
export class WebhookService {
  constructor(private readonly deps: WebhookServiceDeps) {}

  list(): Promise<Webhook[]> {
    return this.deps.webhooks.list();
  }

  async find(id: string): Promise<Webhook> {
    const webhook = await this.deps.webhooks.get(id);
    if (!webhook) throw new NotFoundError('webhook');
    return webhook;
  }

  /** Creates an endpoint, enabled unless told, receiving the events committed from now on. */
  async create(draft: WebhookDraft, by: Initiator = SYSTEM): Promise<RevealedWebhook> {
    const issues = newWebhookIssues(draft, this.deps.urls);
    if (issues.length > 0) throw new ValidationError(issues);
    const { webhooks, clock, ids } = this.deps;
    const now = clock.now();
    const id = ids.next();
    const secret = generateWebhookSecret();
    const webhook: NewWebhook = {
      id,
      url: normalizeWebhookUrl(draft.url),
      events: normalizeWebhookEvents(draft.events),
      enabled: draft.enabled ?? true,
      description: draft.description ?? '',
      secret: await this.seal(secret, id),
      previousSecret: null,
      previousSecretUntil: null,
      failingSince: null,
      disabledReason: null,
      created: now,
      updated: now,
    };
    const stored = await webhooks.create(
      webhook,
      this.record(by, 'webhook.created', id, now, webhookChanges(null, { ...webhook, cursor: 0 })),
    );
    return { webhook: stored, secret };
  }

  /** Changes what the patch names; an unchanged endpoint is answered as it is, with no event. */
  async update(id: string, patch: WebhookPatch, by: Initiator = SYSTEM): Promise<Webhook> {
    const issues = webhookAttributeIssues(patch, this.deps.urls);
    if (issues.length > 0) throw new ValidationError(issues);
    const now = this.deps.clock.now();
    const updated = await this.deps.webhooks.update(id, (current) => {
      const next = applyWebhookPatch(current, patch, now);
      const changes = webhookChanges(current, next);
      if (Object.keys(changes).length === 0) return { webhook: current, audit: null };
      return { webhook: next, audit: this.record(by, 'webhook.updated', id, now, changes) };
    });
    if (!updated) throw new NotFoundError('webhook');
    return updated;
  }

  /** Deletes an endpoint; its deliveries, sent or not, go with it. */
  async delete(id: string, by: Initiator = SYSTEM): Promise<void> {
    const now = this.deps.clock.now();
    const removed = await this.deps.webhooks.delete(id, (webhook) =>
      this.record(by, 'webhook.deleted', id, now, webhookChanges(webhook, null)),
    );
    if (!removed) throw new NotFoundError('webhook');
  }

  /**
   * Replaces the endpoint's signing secret by a new one, answered once. The replaced one keeps
   * signing beside it for 24 hours; one replaced earlier stops at once.
   */
  async rotateSecret(id: string, by: Initiator = SYSTEM): Promise<RevealedWebhook> {
    const now = this.deps.clock.now();
    const secret = generateWebhookSecret();
    const previousUntil = addSeconds(now, WEBHOOK_PREVIOUS_SECRET_SECONDS);
    const rotated = await this.deps.webhooks.rotateSecret(
      id,
      { secret: await this.seal(secret, id), previousUntil, now },
      this.record(by, 'webhook.secret_rotated', id, now, {
        previous_secret_until: { before: null, after: previousUntil.toISOString() },
      }),
    );
    if (!rotated) throw new NotFoundError('webhook');
    return { webhook: rotated, secret };
  }

  /**
   * The secrets a delivery to `webhook` is signed with now, in clear: webhookSigningSecrets() under
   * this service's key ring and clock. For the delivery worker only: never log, store or answer them.
   */
  signingSecrets(webhook: Webhook): Promise<string[]> {
    return webhookSigningSecrets(this.deps.box, webhook, this.deps.clock.now());
  }

  private seal(secret: string, id: string) {
    return this.deps.box.seal(WEBHOOK_SECRET_PURPOSE, secret, id);
  }

  private record(by: Initiator, action: AuditAction, id: string, now: Date, changes: AuditChanges) {
    return auditRecord(this.deps.ids.next(), now, by, action, target(id), changes);
  }
}
