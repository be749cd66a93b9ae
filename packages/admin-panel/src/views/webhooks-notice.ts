import type { WebhookResource } from '../api/webhooks-api';
import { paths } from '../state/routes';
import { disabledByService, webhookStatus } from '../state/webhook-status';
import { h } from '../ui/dom';
import type { Navigate } from '../ui/nav-link';
import { navLink } from '../ui/nav-link';

/**
 * Tells an owner which endpoints the service turned off (failing for 5 days, or 410 Gone): no
 * event reaches them until an owner enables them again. Null when there are none.
 */
export function webhooksNotice(webhooks: readonly WebhookResource[], navigate: Navigate): HTMLElement | null {
  const disabled = webhooks.filter((webhook) => disabledByService(webhook.attributes));
  if (disabled.length === 0) return null;
  return h(
    'div',
    { class: 'notice webhooks-notice', role: 'alert' },
    h(
      'p',
      {},
      disabled.length === 1
        ? 'A webhook endpoint was disabled and receives no events until it is enabled again:'
        : `${disabled.length} webhook endpoints were disabled and receive no events until they are enabled again:`,
    ),
    h(
      'ul',
      {},
      ...disabled.map((webhook) =>
        h(
          'li',
          {},
          navLink(navigate, paths.webhook(webhook.id), { class: 'cell-url' }, webhook.attributes.url),
          ` — ${webhookStatus(webhook.attributes).text}.`,
        ),
      ),
    ),
  );
}
