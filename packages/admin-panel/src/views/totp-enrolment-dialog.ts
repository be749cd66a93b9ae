import type { EnrolledFactor, FactorsApi, VerifiedFactor } from '../api/factors-api';
import { h } from '../ui/dom';
import { field } from '../ui/field';
import { FormErrors } from '../ui/form-errors';
import { openModal } from '../ui/modal';

/**
 * Pairs an authenticator app with a pending TOTP factor: the QR code and the key to type in,
 * then a code from the app to prove it works. Resolves with the factor once active, or null.
 *
 * The QR code is SVG text made by the server; it goes in as an <img> of a data: URL, where no
 * markup of it can run or touch the page (and the CSP's img-src allows data:).
 */
export async function enrolTotp(factors: FactorsApi, factor: EnrolledFactor): Promise<VerifiedFactor | null> {
  const { secret, qr_svg } = factor.attributes;
  const code = field(
    'Code from the app',
    h('input', { type: 'text', name: 'code', inputmode: 'numeric', autocomplete: 'one-time-code', required: true }),
  );
  const errors = new FormErrors({ code });
  const cancel = h('button', { type: 'button', class: 'button' }, 'Cancel');
  const verify = h('button', { type: 'submit', class: 'button primary' }, 'Verify');
  const form = h(
    'form',
    { class: 'totp-enrolment', novalidate: true },
    h('p', {}, 'Scan this code with your authenticator app, or enter the key by hand.'),
    qr_svg
      ? h('img', {
          class: 'qr-code',
          src: `data:image/svg+xml,${encodeURIComponent(qr_svg)}`,
          alt: 'QR code for the authenticator app (the same key as below)',
          width: 200,
          height: 200,
        })
      : null,
    h('p', {}, 'Key: ', h('code', { class: 'totp-secret' }, secret ?? '')),
    errors.element,
    code.element,
    h('div', { class: 'dialog-actions' }, cancel, verify),
  );
  const modal = openModal('Add an authenticator app', form);
  let verified: VerifiedFactor | null = null;
  cancel.addEventListener('click', () => modal.close());
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    void submit();
  });
  code.control.focus();

  async function submit(): Promise<void> {
    errors.clear();
    const value = code.control.value.replace(/\s/g, '');
    if (errors.showProblems(value ? {} : { code: 'Enter the code the app shows.' })) return;
    verify.disabled = true;
    form.setAttribute('aria-busy', 'true');
    try {
      verified = await factors.verify(factor.id, { code: value });
      modal.close();
    } catch (error) {
      errors.showError(error);
      code.control.focus();
      code.control.select();
    } finally {
      verify.disabled = false;
      form.removeAttribute('aria-busy');
    }
  }

  await modal.closed;
  return verified;
}
