import { type AdminSession as Session, ApiError, type MfaChallenge } from '@uas/client';
import { assertPasskey, isPasskeyRefusal, passkeyProblem, passkeysSupported } from '../api/passkeys';
import { h } from '../ui/dom';
import { field } from '../ui/field';
import { FormErrors } from '../ui/form-errors';
import { formatWait } from '../ui/format';
import { secondStepForm } from './second-step-form';
import type { View } from './view';

export interface LoginOptions {
  session: Session;
  /** A note to show above the form, such as why the admin was signed out. */
  notice?: string | null;
  onSignedIn: () => void;
}

/**
 * Sign-in: email and password, then, when the admin has an active factor, the second step (a
 * code or a passkey); or a passkey alone ("Sign in with a passkey").
 */
export function loginView({ session, notice, onSignedIn }: LoginOptions): View {
  const email = field('Email', h('input', { type: 'email', name: 'email', autocomplete: 'username', required: true }));
  const password = field(
    'Password',
    h('input', {
      type: 'password',
      name: 'password',
      autocomplete: 'current-password',
      required: true,
    }),
  );
  const errors = new FormErrors({ email, password });
  const submit = h('button', { type: 'submit', class: 'button primary wide' }, 'Sign in');
  const withPasskey = passkeysSupported()
    ? h(
        'button',
        { type: 'button', class: 'button wide', on: { click: () => void signInWithPasskey() } },
        'Sign in with a passkey',
      )
    : null;
  const noticeEl = h('p', { class: 'notice', role: 'status', hidden: !notice }, notice ?? '');
  const form = h(
    'form',
    { class: 'card login-card', novalidate: true, 'aria-labelledby': 'login-title' },
    h('h1', { id: 'login-title', tabindex: -1 }, 'Sign in'),
    h('p', { class: 'muted' }, 'User accounts administration'),
    noticeEl,
    errors.element,
    email.element,
    password.element,
    submit,
    withPasskey ? h('p', { class: 'or muted' }, 'or') : null,
    withPasskey,
  );
  const element = h('main', { class: 'login-page' }, form);

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    void signIn();
  });

  async function signIn(): Promise<void> {
    errors.clear();
    const problems: Record<string, string> = {};
    if (!email.control.value.trim()) problems.email = 'Enter the admin email.';
    if (!password.control.value) problems.password = 'Enter the password.';
    if (errors.showProblems(problems)) return;

    await busy('Signing in…', async () => {
      try {
        const challenge = await session.login(email.control.value.trim(), password.control.value);
        if (challenge) showSecondStep(challenge);
        else onSignedIn();
      } catch (error) {
        if (error instanceof ApiError && error.status === 429) errors.showForm([loginProblem(error)]);
        else errors.showError(error);
        if (document.activeElement === submit || !form.contains(document.activeElement)) {
          password.control.focus();
          password.control.select();
        }
      }
    });
  }

  async function signInWithPasskey(): Promise<void> {
    errors.clear();
    await busy('Signing in…', async () => {
      try {
        await session.loginWithPasskey(await assertPasskey(await session.passkeyOptions()));
        onSignedIn();
      } catch (error) {
        errors.showForm([isPasskeyRefusal(error) ? passkeyProblem(error) : loginProblem(error)]);
      }
    });
  }

  /** Disables the form's buttons while `task` runs. */
  async function busy(label: string, task: () => Promise<void>): Promise<void> {
    submit.disabled = true;
    if (withPasskey) withPasskey.disabled = true;
    submit.textContent = label;
    form.setAttribute('aria-busy', 'true');
    try {
      await task();
    } finally {
      submit.disabled = false;
      if (withPasskey) withPasskey.disabled = false;
      submit.textContent = 'Sign in';
      form.removeAttribute('aria-busy');
    }
  }

  /** The password was right: the card now asks for the second factor, until signed in or sent back. */
  function showSecondStep(challenge: MfaChallenge): void {
    const { kinds, webauthn } = challenge.attributes;
    const back = h('button', { type: 'button', class: 'button ghost wide' }, 'Back');
    back.addEventListener('click', () => restart(null));
    const step = secondStepForm({
      passkey: kinds.includes('webauthn') && webauthn !== undefined && passkeysSupported(),
      assertPasskey: async () => ({ credential: await assertPasskey(webauthn) }),
      submit: async (proof) => {
        try {
          await session.completeSecondStep(challenge.id, proof);
        } catch (error) {
          // A challenge that expired or took too many wrong answers cannot be answered again.
          if (error instanceof ApiError && error.errors[0]?.code === 'invalid_challenge') {
            restart('That sign-in expired or had too many wrong codes. Please sign in again.');
            return;
          }
          throw error;
        }
        onSignedIn();
      },
      submitLabel: 'Verify',
      intro: [h('h1', { id: 'login-title', tabindex: -1 }, 'Second step'), h('p', { class: 'muted' }, stepHint(kinds))],
      extra: [back],
    });
    step.element.classList.add('card', 'login-card');
    step.element.setAttribute('aria-labelledby', 'login-title');
    element.replaceChildren(step.element);
    step.focus();
  }

  /** Back to email and password, the email kept. */
  function restart(message: string | null): void {
    password.control.value = '';
    noticeEl.textContent = message ?? '';
    noticeEl.hidden = message === null;
    element.replaceChildren(form);
    password.control.focus();
  }

  queueMicrotask(() => email.control.focus());
  return { element };
}

function stepHint(kinds: readonly string[]): string {
  const ways = [
    kinds.includes('totp') ? 'a code from your authenticator app' : null,
    kinds.includes('recovery_code') ? 'a recovery code' : null,
    kinds.includes('webauthn') ? 'your passkey' : null,
  ].filter((way): way is string => way !== null);
  return `Confirm it is you with ${ways.join(', ').replace(/, ([^,]*)$/, ' or $1')}.`;
}

function loginProblem(error: unknown): string {
  if (error instanceof ApiError && error.status === 429) {
    const wait = error.retryAfter === null ? 'a while' : formatWait(error.retryAfter);
    return `Too many failed sign-in attempts. Try again in ${wait}.`;
  }
  return error instanceof ApiError ? error.message : 'Something went wrong. Please try again.';
}
