import { ApiError, isAbort } from '@uas/client';
import type { WebhookResource } from '../api/webhooks-api';
import { paths } from '../state/routes';
import { webhookStatus } from '../state/webhook-status';
import { confirmAction } from '../ui/confirm-dialog';
import { h } from '../ui/dom';
import { errorState } from '../ui/error-state';
import { errorText } from '../ui/form-errors';
import { navLink } from '../ui/nav-link';
import { stamp } from '../ui/stamp';
import { toast } from '../ui/toast';
import { appHeader } from './app-header';
import { deliveryLog } from './delivery-log';
import { replaySinceForm } from './replay-since-form';
import type { ScreenContext, View } from './view';
import { openWebhookForm } from './webhook-form-dialog';
import { showWebhookSecret } from './webhook-secret-dialog';
import { eventsText } from './webhooks-view';

/**
 * One webhook endpoint (owners only): its settings and the ways to change them (edit, enable or
 * disable, a new secret, deletion), a test event, and its delivery log with replays.
 */
export function webhookView(context: ScreenContext, webhookId: string): View {
  const { webhooks, navigate, can } = context;
  const abort = new AbortController();
  const heading = h('h1', { tabindex: -1 }, 'Webhook endpoint');
  const edit = h('button', { type: 'button', class: 'button', disabled: true }, 'Edit');
  const toggle = h('button', { type: 'button', class: 'button', disabled: true }, 'Disable');
  const rotate = h('button', { type: 'button', class: 'button', disabled: true }, 'Rotate secret');
  const remove = h('button', { type: 'button', class: 'button danger', disabled: true }, 'Delete');
  const sendTest = h('button', { type: 'button', class: 'button primary' }, 'Send test event');
  const details = h('section', { class: 'card', 'aria-labelledby': 'details-title', 'aria-busy': 'true' });
  let loaded: WebhookResource | null = null;

  const log = deliveryLog({
    path: paths.webhook(webhookId),
    fetch: (page, signal) => webhooks.deliveries(webhookId, page, signal),
    replay: async (delivery) => {
      await webhooks.replayDelivery(webhookId, delivery.id);
      toast(`Delivery of ${delivery.attributes.event_type} queued again.`);
    },
  });
  const replaySince = replaySinceForm(async (since) => {
    const queued = await webhooks.replaySince(webhookId, since);
    toast(`${queued} ${queued === 1 ? 'event' : 'events'} queued again.`);
    await log.load();
  });

  edit.addEventListener('click', () => {
    if (loaded)
      void openWebhookForm({
        webhooks,
        editing: loaded,
        onSaved: () => void loadWebhook(),
      });
  });
  toggle.addEventListener('click', () => void setEnabled());
  rotate.addEventListener('click', async () => {
    if (!loaded) return;
    const url = loaded.attributes.url;
    let secret = '';
    const done = await confirmAction({
      title: 'Rotate the signing secret?',
      message: `A new secret signs every delivery to ${url} from now on. The current one keeps signing beside it for 24 hours, while the receiver is given the new one.`,
      confirmLabel: 'Rotate secret',
      action: async () => {
        secret = (await webhooks.rotateSecret(webhookId)).attributes.secret;
      },
    });
    if (done) await showWebhookSecret(url, secret);
  });
  remove.addEventListener('click', async () => {
    if (!loaded) return;
    const url = loaded.attributes.url;
    const done = await confirmAction({
      title: 'Delete the endpoint?',
      message: `${url} receives no more events, and its delivery log is deleted with it.`,
      confirmLabel: 'Delete',
      action: () => webhooks.remove(webhookId),
    });
    if (!done) return;
    toast(`${url} is deleted.`);
    navigate(paths.webhooks);
  });
  sendTest.addEventListener('click', async () => {
    if (sendTest.getAttribute('aria-disabled') === 'true') return;
    sendTest.setAttribute('aria-disabled', 'true');
    try {
      await webhooks.sendTest(webhookId);
      toast('A test event is queued.');
      await log.load();
    } catch (error) {
      toast(errorText(error), 'error');
    } finally {
      sendTest.removeAttribute('aria-disabled');
    }
  });

  async function setEnabled(): Promise<void> {
    if (!loaded || toggle.getAttribute('aria-disabled') === 'true') return;
    const enabled = !loaded.attributes.enabled;
    toggle.setAttribute('aria-disabled', 'true');
    try {
      const changed = await webhooks.update(webhookId, { enabled });
      toast(`${changed.attributes.url} is ${enabled ? 'enabled' : 'disabled'}.`);
      show(changed);
      toggle.focus();
    } catch (error) {
      toast(errorText(error), 'error');
    } finally {
      toggle.removeAttribute('aria-disabled');
    }
  }

  async function loadWebhook(): Promise<void> {
    const title = h('h2', { id: 'details-title', tabindex: -1 }, 'Settings');
    details.setAttribute('aria-busy', 'true');
    try {
      show(await webhooks.get(webhookId, abort.signal));
    } catch (error) {
      if (isAbort(error)) return;
      if (error instanceof ApiError && error.status === 404) {
        heading.textContent = 'Endpoint not found';
        details.replaceChildren(
          title,
          h('p', { role: 'alert' }, 'No endpoint with this id exists; it may have been deleted.'),
        );
        return;
      }
      details.replaceChildren(
        title,
        errorState('Could not load the endpoint', error, () => void loadWebhook()),
      );
    } finally {
      details.setAttribute('aria-busy', 'false');
    }
  }

  function show(webhook: WebhookResource): void {
    loaded = webhook;
    const { url, events, enabled, description, disabled_reason, failing_since, created, updated } = webhook.attributes;
    heading.textContent = url;
    document.title = `${url} · Admin`;
    for (const button of [edit, toggle, rotate, remove]) button.disabled = false;
    toggle.textContent = enabled ? 'Disable' : 'Enable';
    const status = webhookStatus(webhook.attributes);
    const rows: [string, Node | string][] = [
      ['URL', h('span', { class: 'cell-url' }, url)],
      ['Events', eventsText(events)],
      ['Status', h('span', { class: `badge ${status.tone}` }, status.text)],
      ['Failing since', failing_since ? stamp(failing_since) : '—'],
      ['Description', description || '—'],
      ['Created', stamp(created)],
      ['Updated', stamp(updated)],
      ['Id', h('code', {}, webhook.id)],
    ];
    details.replaceChildren(
      h('h2', { id: 'details-title', tabindex: -1 }, 'Settings'),
      ...(disabled_reason
        ? [
            h(
              'p',
              { class: 'notice', role: 'alert' },
              `${status.text}. No event is delivered until it is enabled again; the events since then can be replayed below.`,
            ),
          ]
        : []),
      h('dl', { class: 'attributes' }, ...rows.flatMap(([term, value]) => [h('dt', {}, term), h('dd', {}, value)])),
    );
  }

  const allowed = can('settings.manage');
  if (allowed) {
    void loadWebhook();
    void log.load();
  }
  const deliveries = h(
    'section',
    { class: 'card deliveries', 'aria-labelledby': 'deliveries-title' },
    h(
      'div',
      { class: 'card-head' },
      h('h2', { id: 'deliveries-title', tabindex: -1 }, 'Deliveries'),
      h('div', { class: 'card-actions' }, sendTest, log.refresh),
    ),
    replaySince,
    log.element,
  );
  return {
    element: h(
      'div',
      { class: 'shell' },
      appHeader(context, 'webhooks'),
      h(
        'main',
        { class: 'page' },
        h('p', { class: 'breadcrumb' }, navLink(navigate, paths.webhooks, {}, '← Webhooks')),
        h(
          'div',
          { class: 'page-head' },
          heading,
          allowed && h('div', { class: 'page-actions' }, edit, toggle, rotate, remove),
        ),
        ...(allowed
          ? [h('div', { class: 'webhook-page' }, details, deliveries)]
          : [h('p', { role: 'alert' }, 'Only owners manage webhooks. Your role is shown at the top of the page.')]),
      ),
    ),
    onLocationChange: log.onLocationChange,
    destroy() {
      abort.abort();
      log.destroy();
    },
  };
}
