/** What the panel needs of an endpoint to say how it stands. */
export interface WebhookState {
  enabled: boolean;
  disabled_reason: string | null;
  failing_since: string | null;
}

/** How an endpoint stands, in words, and the badge tone that goes with them. */
export function webhookStatus({ enabled, disabled_reason, failing_since }: WebhookState): {
  text: string;
  tone: 'on' | 'off' | 'warn';
} {
  if (enabled) return failing_since ? { text: 'Failing', tone: 'warn' } : { text: 'Enabled', tone: 'on' };
  if (disabled_reason === 'failing') return { text: 'Disabled: failing for 5 days', tone: 'off' };
  if (disabled_reason === 'gone') return { text: 'Disabled: the receiver answered 410 Gone', tone: 'off' };
  return { text: 'Disabled by an admin', tone: 'off' };
}

/** Whether the service itself turned the endpoint off, which an admin must be told about. */
export const disabledByService = (webhook: WebhookState): boolean =>
  !webhook.enabled && webhook.disabled_reason !== null;
