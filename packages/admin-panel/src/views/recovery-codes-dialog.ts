import { h } from '../ui/dom';
import { openModal } from '../ui/modal';
import { toast } from '../ui/toast';

/**
 * Shows the recovery codes this once (the server keeps only their hashes): a plain list that
 * selects and copies cleanly, one code a line, and a button that copies them all.
 */
export async function showRecoveryCodes(codes: readonly string[]): Promise<void> {
  const list = h(
    'ol',
    { class: 'recovery-codes', 'aria-label': 'Recovery codes' },
    ...codes.map((c) => h('li', {}, h('code', {}, c))),
  );
  const copy = h('button', { type: 'button', class: 'button' }, 'Copy all');
  const done = h('button', { type: 'submit', class: 'button primary' }, 'I have saved them');
  copy.addEventListener('click', async () => {
    try {
      await navigator.clipboard.writeText(`${codes.join('\n')}\n`);
      toast('The recovery codes are copied.');
    } catch {
      toast('Could not copy; select the list and copy it instead.', 'error');
    }
  });
  const modal = openModal(
    'Your recovery codes',
    h(
      'form',
      { method: 'dialog', class: 'recovery-codes-form' },
      h(
        'p',
        {},
        'Each code signs you in once when your authenticator app or passkey is not at hand. Keep them somewhere safe: they are shown only now.',
      ),
      list,
      h('div', { class: 'dialog-actions' }, copy, done),
    ),
  );
  copy.focus();
  await modal.closed;
}
