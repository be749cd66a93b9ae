import { type AdminSession, ApiError, type SecondStepAnswer } from '@uas/client';
import { assertPasskey } from '../api/passkeys';
import { h } from '../ui/dom';
import { openModal } from '../ui/modal';
import { secondStepForm } from './second-step-form';

/**
 * Runs an action that may need a fresh second factor (removing a factor, new recovery codes).
 * Once the server answers 403 `second_factor_required`, asks for a code or the passkey and runs it
 * again with that proof. Resolves with the action's result, or null when the admin cancelled.
 */
export async function withSecondFactor<T>(
  session: AdminSession,
  /** `passkey`: whether to offer one, or how to find out once a proof is asked for. */
  options: { title: string; passkey: boolean | (() => Promise<boolean>) },
  action: (proof?: SecondStepAnswer) => Promise<T>,
): Promise<T | null> {
  try {
    return await action();
  } catch (error) {
    if (!(error instanceof ApiError && error.errors[0]?.code === 'second_factor_required')) throw error;
  }
  const passkey = typeof options.passkey === 'boolean' ? options.passkey : await options.passkey();
  let result: { value: T } | null = null;
  const cancel = h('button', { type: 'button', class: 'button ghost wide' }, 'Cancel');
  const step = secondStepForm({
    passkey,
    // A fresh challenge of the admin's passkey sign-in, whose answer the server takes as a proof.
    assertPasskey: async () => ({ credential: await assertPasskey(await session.passkeyOptions()) }),
    submit: async (proof) => {
      result = { value: await action(proof) };
      modal.close();
    },
    submitLabel: 'Confirm',
    intro: [
      h(
        'p',
        {},
        'Confirm it is you: enter a code from your authenticator app or a recovery code, or use your passkey.',
      ),
    ],
    extra: [cancel],
  });
  const modal = openModal(options.title, step.element);
  cancel.addEventListener('click', () => modal.close());
  step.focus();
  await modal.closed;
  return (result as { value: T } | null)?.value ?? null;
}
