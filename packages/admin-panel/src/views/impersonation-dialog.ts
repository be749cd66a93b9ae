import type { AdminSession } from '@uas/client';
import type { FactorsApi } from '../api/factors-api';
import type { AdminUser, Impersonation, UsersApi } from '../api/users-api';
import { h } from '../ui/dom';
import { field } from '../ui/field';
import { FormErrors } from '../ui/form-errors';
import { sendForm } from '../ui/send-form';
import { formatTimestamp } from '../ui/format';
import { openModal } from '../ui/modal';
import { toast } from '../ui/toast';
import { withSecondFactor } from './step-up';

/**
 * Signs in as a user for support: asks for the reason (audited under the admin), and the admin's
 * second factor when they have one, then shows the user's access token, its expiry and a copy button.
 * The token has no refresh token; ending its session in the user's sessions stops it at once.
 */
export async function openImpersonation(
  deps: { session: AdminSession; users: UsersApi; factors: FactorsApi },
  user: AdminUser,
  onStarted: () => void,
): Promise<void> {
  const reason = field(
    'Reason',
    h('textarea', { name: 'reason', rows: 3, required: true }),
    'Recorded in the audit log under your name; the user sees the session in their own list.',
  );
  const errors = new FormErrors({ reason });
  const cancel = h('button', { type: 'button', class: 'button' }, 'Cancel');
  const submit = h('button', { type: 'submit', class: 'button primary' }, 'Get a token');
  const form = h(
    'form',
    { class: 'impersonation-form', novalidate: true },
    h(
      'p',
      {},
      `A token that acts as ${user.attributes.email} for at most 15 minutes, without a refresh token. It cannot change their password, email or factors.`,
    ),
    errors.element,
    reason.element,
    h('div', { class: 'dialog-actions' }, cancel, submit),
  );
  const modal = openModal('Impersonate the user', form);
  cancel.addEventListener('click', () => modal.close());
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    void start();
  });
  reason.control.focus();

  async function start(): Promise<void> {
    if (submit.disabled) return;
    errors.clear();
    const why = reason.control.value.trim();
    if (errors.showProblems(why ? {} : { reason: 'Give the reason for acting as this user.' })) return;
    await sendForm(form, submit, errors, async () => {
      const started = await withSecondFactor(
        deps.session,
        { title: 'Confirm it is you', passkey: () => hasPasskey(deps.factors) },
        (proof) => deps.users.impersonate(user.id, why, proof),
      );
      if (!started) return;
      onStarted();
      showToken(started);
    });
  }

  /** The dialog's form gives way to the token: the only time it is shown. */
  function showToken({ access_token, expires }: Impersonation): void {
    const token = field(
      'Access token',
      h(
        'textarea',
        { name: 'access_token', rows: 4, readonly: true, spellcheck: 'false', class: 'code' },
        access_token,
      ),
      'Send it as Authorization: Bearer. Shown only now.',
    );
    const copy = h('button', { type: 'button', class: 'button' }, 'Copy token');
    const done = h('button', { type: 'submit', class: 'button primary' }, 'Done');
    copy.addEventListener('click', async () => {
      try {
        await navigator.clipboard.writeText(access_token);
        toast('The token is copied.');
      } catch {
        toast('Could not copy; select the token and copy it instead.', 'error');
      }
    });
    const { text } = formatTimestamp(expires);
    form.replaceWith(
      h(
        'form',
        { method: 'dialog', class: 'impersonation-token' },
        h(
          'p',
          {},
          `Acting as ${user.attributes.email}. The token expires at `,
          h('time', { datetime: expires, title: expires, class: 'token-expiry' }, text),
          '.',
        ),
        token.element,
        h('div', { class: 'dialog-actions' }, copy, done),
      ),
    );
    copy.focus();
  }

  await modal.closed;
}

async function hasPasskey(factors: FactorsApi): Promise<boolean> {
  const { data } = await factors.list();
  return data.some((factor) => factor.attributes.kind === 'webauthn' && factor.attributes.status === 'active');
}
