import { type AdminSession as Session, ApiError } from '@uas/client';
import { h } from '../ui/dom';
import { field } from '../ui/field';
import { FormErrors } from '../ui/form-errors';
import { formatWait } from '../ui/format';
import type { View } from './view';

export interface LoginOptions {
  session: Session;
  /** A note to show above the form, such as why the admin was signed out. */
  notice?: string | null;
  onSignedIn: () => void;
}

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
  const form = h(
    'form',
    { class: 'card login-card', novalidate: true, 'aria-labelledby': 'login-title' },
    h('h1', { id: 'login-title' }, 'Sign in'),
    h('p', { class: 'muted' }, 'User accounts administration'),
    notice ? h('p', { class: 'notice' }, notice) : null,
    errors.element,
    email.element,
    password.element,
    submit,
  );

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

    submit.disabled = true;
    submit.textContent = 'Signing in…';
    form.setAttribute('aria-busy', 'true');
    try {
      await session.login(email.control.value.trim(), password.control.value);
      onSignedIn();
    } catch (error) {
      if (error instanceof ApiError && error.status === 429) {
        const wait = error.retryAfter === null ? 'a while' : formatWait(error.retryAfter);
        errors.showForm([`Too many failed sign-in attempts. Try again in ${wait}.`]);
      } else {
        errors.showError(error);
      }
      if (document.activeElement === submit || !form.contains(document.activeElement)) {
        password.control.focus();
        password.control.select();
      }
    } finally {
      submit.disabled = false;
      submit.textContent = 'Sign in';
      form.removeAttribute('aria-busy');
    }
  }

  const element = h('main', { class: 'login-page' }, form);
  queueMicrotask(() => email.control.focus());
  return { element };
}
