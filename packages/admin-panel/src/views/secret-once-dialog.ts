import { h } from '../ui/dom';
import { field } from '../ui/field';
import { openModal } from '../ui/modal';
import { toast } from '../ui/toast';

export interface SecretOnce {
  /** The dialog's title: "Save the …". */
  title: string;
  /** The field's label. */
  label: string;
  /** What the secret is for and who needs it. */
  purpose: string;
  secret: string;
}

/**
 * Shows a secret this once (the API never shows it again), with a copy button. Resolves when the
 * admin closes the dialog.
 */
export async function showSecretOnce({ title, label, purpose, secret }: SecretOnce): Promise<void> {
  const value = field(
    label,
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
    title,
    h(
      'form',
      { method: 'dialog', class: 'secret-once' },
      h('p', {}, purpose),
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
