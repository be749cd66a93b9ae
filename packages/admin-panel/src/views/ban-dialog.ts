import type { AdminUser, UsersApi } from '../api/users-api';
import { h } from '../ui/dom';
import { field } from '../ui/field';
import { FormErrors } from '../ui/form-errors';
import { sendForm } from '../ui/send-form';
import { openModal } from '../ui/modal';
import { fromLocalInput } from '../ui/local-time';

/**
 * Bans a user: a reason (kept with the ban and in the audit log) and an optional end. Every session
 * of the user ends with it. Resolves with the banned user, or null when cancelled.
 */
export async function openBanDialog(users: UsersApi, user: AdminUser): Promise<AdminUser | null> {
  const fields = {
    reason: field(
      'Reason',
      h('textarea', { name: 'reason', rows: 3, required: true }),
      'Kept with the ban and in the audit log.',
    ),
    until: field(
      'Banned until',
      h('input', { type: 'datetime-local', name: 'until' }),
      'Leave empty for a ban without end; it lifts itself at this time otherwise.',
    ),
  };
  const errors = new FormErrors(fields);
  const cancel = h('button', { type: 'button', class: 'button' }, 'Cancel');
  const submit = h('button', { type: 'submit', class: 'button danger' }, 'Ban');
  const form = h(
    'form',
    { class: 'ban-form', novalidate: true },
    h('p', {}, `${user.attributes.email} will be signed out everywhere and cannot sign in while banned.`),
    errors.element,
    fields.reason.element,
    fields.until.element,
    h('div', { class: 'dialog-actions' }, cancel, submit),
  );
  const modal = openModal('Ban the user', form);
  let banned: AdminUser | null = null;
  cancel.addEventListener('click', () => modal.close());
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    void ban();
  });
  fields.reason.control.focus();

  async function ban(): Promise<void> {
    if (submit.disabled) return;
    errors.clear();
    const reason = fields.reason.control.value.trim();
    if (errors.showProblems(reason ? {} : { reason: 'Give the reason for the ban.' })) return;
    await sendForm(form, submit, errors, async () => {
      banned = await users.ban(user.id, reason, fromLocalInput(fields.until.control.value) || null);
      modal.close();
    });
  }

  await modal.closed;
  return banned;
}
