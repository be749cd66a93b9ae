import { h } from './dom';
import { FormErrors } from './form-errors';
import { sendForm } from './send-form';
import { openModal } from './modal';

export interface ConfirmOptions {
  title: string;
  message: string;
  confirmLabel: string;
  /** Runs when confirmed; a failure is shown in the dialog, which stays open. */
  action: () => Promise<void>;
}

/** Asks before doing something that cannot be undone. Resolves true once the action is done. */
export async function confirmAction(options: ConfirmOptions): Promise<boolean> {
  const errors = new FormErrors({});
  const cancel = h('button', { type: 'button', class: 'button' }, 'Cancel');
  const confirm = h('button', { type: 'submit', class: 'button danger' }, options.confirmLabel);
  const form = h(
    'form',
    { method: 'dialog', class: 'confirm' },
    errors.element,
    h('p', {}, options.message),
    h('div', { class: 'dialog-actions' }, cancel, confirm),
  );
  const modal = openModal(options.title, form);
  let done = false;

  cancel.addEventListener('click', () => modal.close());
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    void run();
  });
  cancel.focus();

  async function run(): Promise<void> {
    errors.clear();
    await sendForm(form, confirm, errors, async () => {
      await options.action();
      done = true;
      modal.close();
    });
  }

  await modal.closed;
  return done;
}
