import { ApiError, type SecondStepAnswer } from '@uas/client';
import { isPasskeyRefusal, passkeyProblem } from '../api/passkeys';
import { h } from '../ui/dom';
import { field } from '../ui/field';
import { FormErrors } from '../ui/form-errors';
import { formatWait } from '../ui/format';

export interface SecondStepOptions {
  /** Whether to offer a passkey beside the code. */
  passkey: boolean;
  /** Makes the passkey proof (the browser's assertion over a fresh or the given challenge). */
  assertPasskey: () => Promise<SecondStepAnswer>;
  /** Sends the proof; a rejection is shown in the form, which stays. */
  submit: (proof: SecondStepAnswer) => Promise<void>;
  submitLabel: string;
  /** Content before the fields (a heading, an explanation). */
  intro: HTMLElement[];
  /** Content after the buttons (a way back, a cancel button). */
  extra?: HTMLElement[];
}

/**
 * The second factor's form: a code from the authenticator app or a recovery code, and "Use a
 * passkey" when the admin has one. The login's second step and every step-up use it.
 */
export function secondStepForm(options: SecondStepOptions): { element: HTMLFormElement; focus(): void } {
  const code = field(
    'Authentication code',
    h('input', {
      type: 'text',
      name: 'code',
      autocomplete: 'one-time-code',
      autocapitalize: 'off',
      spellcheck: 'false',
      required: true,
    }),
    'The 6-digit code from your authenticator app, or one of your recovery codes.',
  );
  const errors = new FormErrors({ code });
  const submit = h('button', { type: 'submit', class: 'button primary wide' }, options.submitLabel);
  const passkey = options.passkey
    ? h(
        'button',
        { type: 'button', class: 'button wide', on: { click: () => void send(options.assertPasskey) } },
        'Use a passkey',
      )
    : null;
  const element = h(
    'form',
    { class: 'second-step', novalidate: true },
    ...options.intro,
    errors.element,
    code.element,
    submit,
    passkey,
    ...(options.extra ?? []),
  );
  element.addEventListener('submit', (event) => {
    event.preventDefault();
    const value = code.control.value.trim();
    if (errors.showProblems(value ? {} : { code: 'Enter a code.' })) return;
    void send(async () => ({ code: value }));
  });

  let busy = false;
  async function send(prove: () => Promise<SecondStepAnswer>): Promise<void> {
    if (busy) return;
    busy = true;
    errors.clear();
    element.setAttribute('aria-busy', 'true');
    for (const button of [submit, passkey]) if (button) button.disabled = true;
    try {
      await options.submit(await prove());
    } catch (error) {
      errors.showForm([problemOf(error)]);
      code.control.focus();
      code.control.select();
    } finally {
      busy = false;
      element.removeAttribute('aria-busy');
      for (const button of [submit, passkey]) if (button) button.disabled = false;
    }
  }

  return { element, focus: () => code.control.focus() };
}

function problemOf(error: unknown): string {
  if (isPasskeyRefusal(error)) return passkeyProblem(error);
  if (error instanceof ApiError && error.status === 429) {
    const wait = error.retryAfter === null ? 'a while' : formatWait(error.retryAfter);
    return `Too many wrong codes. Try again in ${wait}.`;
  }
  return error instanceof ApiError ? error.message : 'Something went wrong. Please try again.';
}
