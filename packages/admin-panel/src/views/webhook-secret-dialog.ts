import { h } from '../ui/dom';
import { field } from '../ui/field';
import { openModal } from '../ui/modal';
import { toast } from '../ui/toast';

/**
 * Shows an endpoint's signing secret this once (the API never shows it again), with a copy
 * button. Resolves when the admin closes the dialog.
 */
export async function showWebhookSecret(url: string, secret: string): Promise<void> {
  const value = field(
    'Signing secret',
    h('input', {
      type: 'text',
      name: 'secret',
      readonly: true,
      spellcheck: 'false',
      autocomplete: 'off',
      value: secret,
    }),
  );
  const copy = h('button', { type: 'button', class: 'button' }, 'Copy secret');
  const done = h('button', { type: 'submit', class: 'button primary' }, 'I have saved it');
  copy.addEventListener('click', async () => {
    try {
      await navigator.clipboard.writeText(secret);
      toast('The secret is copied.');
    } catch {
      toast('Could not copy; select the secret and copy it instead.', 'error');
    }
  });
  const modal = openModal(
    'Save the signing secret',
    h(
      'form',
      { method: 'dialog', class: 'webhook-secret' },
      h(
        'p',
        {},
        `Every delivery to ${url} is signed with this secret. Give it to the receiver, which verifies each request with it (any Standard Webhooks library does).`,
      ),
      h(
        'p',
        { class: 'notice' },
        h('strong', {}, 'Shown only now.'),
        ' The service keeps it sealed and will not show it again: if it is lost, rotate the secret.',
      ),
      value.element,
      h('div', { class: 'dialog-actions' }, copy, done),
    ),
  );
  value.control.select();
  copy.focus();
  await modal.closed;
}
