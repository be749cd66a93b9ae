import { h } from '../ui/dom';
import { field } from '../ui/field';
import { FormErrors } from '../ui/form-errors';

/**
 * "Replay every event since number N": for a receiver that lost what it had, or an endpoint that
 * was disabled. `replay` queues them; a failure is shown at the form.
 */
export function replaySinceForm(replay: (since: number) => Promise<void>): HTMLFormElement {
  const since = field(
    'Replay events since number',
    h('input', { type: 'number', name: 'since', min: 0, step: 1, required: true, inputmode: 'numeric' }),
    'Every event this endpoint subscribes to, from this number on (the sequence each delivery carries), is delivered again.',
  );
  const errors = new FormErrors({ since });
  const submit = h('button', { type: 'submit', class: 'button' }, 'Replay');
  const form = h(
    'form',
    { class: 'replay-since', novalidate: true },
    errors.element,
    h('div', { class: 'inline-form' }, since.element, submit),
  );
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    if (submit.disabled) return;
    errors.clear();
    const value = since.control.value.trim();
    if (!/^\d+$/.test(value)) {
      errors.showProblems({ since: 'Enter an event number: 0 or more.' });
      return;
    }
    submit.disabled = true;
    form.setAttribute('aria-busy', 'true');
    try {
      await replay(Number(value));
      form.reset();
    } catch (error) {
      errors.showError(error);
    } finally {
      submit.disabled = false;
      form.removeAttribute('aria-busy');
    }
  });
  return form;
}
