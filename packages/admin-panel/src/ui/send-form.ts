import type { FormErrors } from './form-errors';

/**
 * Runs `send` with `button` disabled and `form` marked busy until it settles, so a second click
 * sends nothing twice; a failure is shown in `errors`, at its field where the API points to one.
 */
export async function sendForm(
  form: HTMLFormElement,
  button: HTMLButtonElement,
  errors: FormErrors,
  send: () => Promise<void>,
): Promise<void> {
  button.disabled = true;
  form.setAttribute('aria-busy', 'true');
  try {
    await send();
  } catch (error) {
    errors.showError(error);
  } finally {
    button.disabled = false;
    form.removeAttribute('aria-busy');
  }
}
