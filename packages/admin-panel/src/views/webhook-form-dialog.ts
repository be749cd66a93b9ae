import { ALL_WEBHOOK_EVENTS as ALL, WEBHOOK_EVENT_TYPES, type WebhookEventSelector } from '@uas/domain';
import type { WebhookInput, WebhookResource, WebhooksApi } from '../api/webhooks-api';
import { h, setAttr, uniqueId } from '../ui/dom';
import { field, type Field } from '../ui/field';
import { FormErrors } from '../ui/form-errors';
import { openModal } from '../ui/modal';
import { toast } from '../ui/toast';
import { showWebhookSecret } from './webhook-secret-dialog';

export interface WebhookFormOptions {
  webhooks: WebhooksApi;
  /** The endpoint to edit; without it the form creates one, then shows its secret once. */
  editing?: WebhookResource;
  /** Called once the endpoint is saved (before a new one's secret is shown). */
  onSaved: () => void;
}

/** The create / edit form of an endpoint, in a modal dialog. Resolves when it closes. */
export async function openWebhookForm({ webhooks, editing, onSaved }: WebhookFormOptions): Promise<void> {
  const url = field(
    'URL',
    h('input', { type: 'url', name: 'url', required: true, autocomplete: 'off', placeholder: 'https://' }),
    'Where each event is POSTed, signed to the Standard Webhooks specification. https only.',
  );
  const events = eventsPicker(editing?.attributes.events ?? [ALL]);
  const description = field(
    'Description',
    h('input', { type: 'text', name: 'description', autocomplete: 'off' }),
    'Optional: who receives these events, for the next admin.',
  );
  const fields = { url, events: events.field, description };
  const errors = new FormErrors(fields);
  const label = editing ? 'Save changes' : 'Create endpoint';
  const cancel = h('button', { type: 'button', class: 'button' }, 'Cancel');
  const save = h('button', { type: 'submit', class: 'button primary' }, label);
  const form = h(
    'form',
    { class: 'webhook-form', novalidate: true },
    errors.element,
    h('div', { class: 'form-grid' }, url.element, description.element, events.element),
    h('div', { class: 'dialog-actions' }, cancel, save),
  );
  if (editing) {
    url.control.value = editing.attributes.url;
    description.control.value = editing.attributes.description;
  }
  const modal = openModal(editing ? 'Edit endpoint' : 'New webhook endpoint', form);
  cancel.addEventListener('click', () => modal.close());
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    void submit();
  });
  url.control.focus();

  async function submit(): Promise<void> {
    if (save.disabled) return;
    errors.clear();
    const values: WebhookInput = {
      url: url.control.value.trim(),
      events: events.chosen(),
      description: description.control.value.trim(),
    };
    const problems: Record<string, string> = {};
    if (!values.url) problems.url = 'Enter the URL to deliver to.';
    if (values.events.length === 0) problems.events = 'Choose at least one event, or all of them.';
    if (errors.showProblems(problems)) return;
    save.disabled = true;
    save.textContent = 'Saving…';
    form.setAttribute('aria-busy', 'true');
    try {
      if (editing) {
        const saved = await webhooks.update(editing.id, values);
        modal.close();
        onSaved();
        toast(`Saved ${saved.attributes.url}.`);
      } else {
        const created = await webhooks.create(values);
        modal.close();
        onSaved();
        await showWebhookSecret(created.attributes.url, created.attributes.secret);
      }
    } catch (error) {
      errors.showError(error);
    } finally {
      save.disabled = false;
      save.textContent = label;
      form.removeAttribute('aria-busy');
    }
  }

  await modal.closed;
}

/**
 * The events to deliver: all of them (those added later too), or those checked in the catalogue.
 * Checking "All events" sets the others aside rather than clearing them, so unchecking it gives
 * the earlier choice back.
 */
function eventsPicker(selected: readonly string[]): {
  element: HTMLElement;
  field: Field<HTMLInputElement>;
  chosen(): WebhookEventSelector[];
} {
  const all = h('input', { type: 'checkbox', name: 'events-all', checked: selected.includes(ALL) });
  const boxes = WEBHOOK_EVENT_TYPES.map((type) =>
    h('input', { type: 'checkbox', name: 'events', value: type, checked: selected.includes(type) }),
  );
  const allId = uniqueId('events-all');
  all.id = allId;
  const error = h('p', { class: 'field-error', id: uniqueId('events-error'), hidden: true });
  const list = h(
    'ul',
    { class: 'event-choices' },
    ...boxes.map((box) => {
      box.id = uniqueId('event');
      return h('li', {}, box, h('label', { for: box.id }, h('code', {}, box.value)));
    }),
  );
  const sync = () => {
    for (const box of boxes) box.disabled = all.checked;
  };
  all.addEventListener('change', sync);
  sync();
  const element = h(
    'fieldset',
    { class: 'field event-picker' },
    h('legend', {}, 'Events'),
    h('div', { class: 'field-check' }, all, h('label', { for: allId }, 'All events, including those added later')),
    list,
    error,
  );
  return {
    element,
    field: {
      element,
      control: all,
      setError(message) {
        error.textContent = message ?? '';
        error.hidden = message === null;
        setAttr(element, 'aria-describedby', message !== null ? error.id : null);
      },
    },
    chosen: () => (all.checked ? [ALL] : WEBHOOK_EVENT_TYPES.filter((_, index) => boxes[index]?.checked)),
  };
}
