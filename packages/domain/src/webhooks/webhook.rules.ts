import type { ValidationIssue } from '../shared/errors.ts';
import { isStorableText } from '../shared/json.ts';
import { UNSTORABLE_TEXT } from '../users/user.rules.ts';
import type { WebhookDraft, WebhookPatch } from './webhook.ts';
import { ALL_WEBHOOK_EVENTS, isWebhookEventSelector, type WebhookEventSelector } from './webhook-events.ts';

export const WEBHOOK_URL_MAX_LENGTH = 2048;
export const WEBHOOK_DESCRIPTION_MAX_LENGTH = 500;

/** What the operator allows of endpoints' URLs. */
export interface WebhookUrlPolicy {
  /** Whether `http` URLs are accepted beside `https` ones (WEBHOOK_ALLOW_HTTP). */
  allowHttp: boolean;
  /**
   * What an address literal host (`127.0.0.1`, `[::1]`, as the URL parser writes it) is when a
   * webhook may never reach it (`a loopback address`), else null; absent where the operator allows
   * private addresses (WEBHOOK_ALLOW_PRIVATE_ADDRESSES). A name is checked only when connecting.
   */
  refusedAddress?: (host: string) => string | null;
}

/**
 * Why `url` cannot be an endpoint's, or null: it must be absolute, `https` (or `http` where the
 * operator allows it), and carry no credentials (they would be sent, and shown to every owner;
 * the signature is what proves the sender).
 */
export function webhookUrlProblem(url: string, { allowHttp, refusedAddress }: WebhookUrlPolicy): string | null {
  if (url.length > WEBHOOK_URL_MAX_LENGTH) return `must be at most ${WEBHOOK_URL_MAX_LENGTH} characters`;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'must be an absolute URL';
  }
  if (parsed.protocol === 'http:' && !allowHttp) return 'must be an https URL (http needs WEBHOOK_ALLOW_HTTP=true)';
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return 'must be an https URL';
  if (parsed.username !== '' || parsed.password !== '') return 'must not carry a user name or password';
  const refused = refusedAddress?.(parsed.hostname) ?? null;
  if (refused !== null) return `must not be ${refused} (needs WEBHOOK_ALLOW_PRIVATE_ADDRESSES=true)`;
  return null;
}

/** The URL as it is stored and called: parsed and written out again (host in lower case, and so on). */
export const normalizeWebhookUrl = (url: string): string => new URL(url).href;

export function webhookEventsProblem(events: readonly string[]): string | null {
  if (events.length === 0) return `must name at least one event type, or "${ALL_WEBHOOK_EVENTS}" for all`;
  // Named by its place, not quoted: an error never echoes the input.
  const unknown = events.findIndex((event) => !isWebhookEventSelector(event));
  if (unknown >= 0)
    return `must list event types of the catalogue, or "${ALL_WEBHOOK_EVENTS}" (entry ${unknown} is none)`;
  if (events.includes(ALL_WEBHOOK_EVENTS) && events.length > 1) return `"${ALL_WEBHOOK_EVENTS}" stands alone`;
  return null;
}

/** Each event type once, in the order given. */
export const normalizeWebhookEvents = (events: readonly string[]): WebhookEventSelector[] =>
  [...new Set(events)].filter(isWebhookEventSelector);

function descriptionProblem(description: string): string | null {
  if (description.length > WEBHOOK_DESCRIPTION_MAX_LENGTH) {
    return `must be at most ${WEBHOOK_DESCRIPTION_MAX_LENGTH} characters`;
  }
  return isStorableText(description) ? null : UNSTORABLE_TEXT;
}

const pointer = (attribute: string) => ({ pointer: `/data/attributes/${attribute}` });

/** Every problem with the present attributes of a create or update, one issue per attribute. */
export function webhookAttributeIssues(attributes: WebhookPatch, policy: WebhookUrlPolicy): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  const report = (attribute: string, problem: string | null) => {
    if (problem) issues.push({ source: pointer(attribute), detail: `${attribute} ${problem}` });
  };
  if (attributes.url !== undefined) report('url', webhookUrlProblem(attributes.url, policy));
  if (attributes.events !== undefined) report('events', webhookEventsProblem(attributes.events));
  if (attributes.description !== undefined) report('description', descriptionProblem(attributes.description));
  return issues;
}

/** Issues of a new endpoint: the attribute rules plus the required url and events. */
export function newWebhookIssues(draft: Partial<WebhookDraft>, policy: WebhookUrlPolicy): ValidationIssue[] {
  const missing: ValidationIssue[] = (['url', 'events'] as const)
    .filter((attribute) => draft[attribute] === undefined)
    .map((attribute) => ({ source: pointer(attribute), detail: `${attribute} is required` }));
  return [...missing, ...webhookAttributeIssues(draft, policy)];
}
