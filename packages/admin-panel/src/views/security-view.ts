import { ApiError, isAbort } from '@uas/client';
import type { FactorKind, FactorList, FactorResource, FactorsApi, VerifiedFactor } from '../api/factors-api';
import { createPasskey, isPasskeyRefusal, passkeyProblem, passkeysSupported } from '../api/passkeys';
import { confirmAction } from '../ui/confirm-dialog';
import { h } from '../ui/dom';
import { errorState } from '../ui/error-state';
import { formatTimestamp } from '../ui/format';
import { toast } from '../ui/toast';
import { appHeader } from './app-header';
import { showRecoveryCodes } from './recovery-codes-dialog';
import { withSecondFactor } from './step-up';
import { enrolTotp } from './totp-enrolment-dialog';
import type { ScreenContext, View } from './view';

export interface SecurityOptions {
  /** ADMIN_MFA=required and no factor is active yet: say so, and nothing else is open until one is. */
  enrolmentRequired: boolean;
  /** Called once a factor has become active. */
  onFactorActivated(): void;
}

const KIND_NAMES: Record<FactorKind, string> = { totp: 'Authenticator app', webauthn: 'Passkey' };

/**
 * The admin's own second factors: the list with the recovery codes left, adding an authenticator
 * app or a passkey, removing one and regenerating the codes (both after a fresh proof).
 */
export function securityView(context: ScreenContext, factors: FactorsApi, options: SecurityOptions): View {
  const { session } = context;
  const abort = new AbortController();
  const heading = h('h1', { tabindex: -1 }, 'Security');
  const required = h(
    'p',
    { class: 'notice', role: 'alert', hidden: !options.enrolmentRequired },
    'This service requires a second factor for administrators. Add an authenticator app or a passkey to continue.',
  );
  const addTotp = h('button', { type: 'button', class: 'button primary' }, 'Add an authenticator app');
  const addPasskey = h('button', { type: 'button', class: 'button', hidden: !passkeysSupported() }, 'Add a passkey');
  const listCard = h('section', {
    class: 'card security-card',
    'aria-labelledby': 'factors-title',
    'aria-busy': 'true',
  });
  let loaded: FactorList | null = null;

  addTotp.addEventListener('click', () => void busyWith(addTotp, enrolAuthenticatorApp));
  addPasskey.addEventListener('click', () => void busyWith(addPasskey, enrolPasskey));

  async function load(): Promise<void> {
    const title = h('h2', { id: 'factors-title', tabindex: -1 }, 'Second factors');
    listCard.setAttribute('aria-busy', 'true');
    listCard.replaceChildren(title, h('p', { class: 'muted', role: 'status' }, 'Loading your factors…'));
    try {
      loaded = await factors.list(abort.signal);
      listCard.replaceChildren(title, ...factorList(loaded));
    } catch (error) {
      if (isAbort(error)) return;
      listCard.replaceChildren(
        title,
        errorState('Could not load your factors', error, () => void load()),
      );
    } finally {
      listCard.setAttribute('aria-busy', 'false');
    }
  }

  function factorList(list: FactorList): HTMLElement[] {
    const left = list.meta.recovery_codes_left;
    const active = list.data.some((factor) => factor.attributes.status === 'active');
    const regenerate = h('button', { type: 'button', class: 'button small' }, 'New recovery codes');
    regenerate.addEventListener('click', () => void busyWith(regenerate, regenerateCodes));
    const codes = h(
      'p',
      { class: 'recovery-left' },
      `Recovery codes left: ${left}`,
      active ? ' ' : null,
      active ? regenerate : null,
    );
    if (list.data.length === 0)
      return [h('p', { class: 'muted' }, 'No second factor yet: signing in takes the password alone.'), codes];
    return [h('div', { class: 'table-wrap' }, factorTable(list.data)), codes];
  }

  function factorTable(listed: readonly FactorResource[]): HTMLTableElement {
    return h(
      'table',
      { class: 'sessions-table factors-table' },
      h('caption', { class: 'visually-hidden' }, 'Your second factors'),
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          ...['Kind', 'Status', 'Added', 'Last used'].map((c) => h('th', { scope: 'col' }, c)),
          h('th', { scope: 'col' }, h('span', { class: 'visually-hidden' }, 'Actions')),
        ),
      ),
      h('tbody', {}, ...listed.map(factorRow)),
    );
  }

  function factorRow(factor: FactorResource): HTMLTableRowElement {
    const { kind, status, created, last_used } = factor.attributes;
    const name = KIND_NAMES[kind];
    const remove = h(
      'button',
      {
        type: 'button',
        class: 'button small danger-text',
        'aria-label': `Remove the ${name.toLowerCase()} added ${formatTimestamp(created).text}`,
      },
      'Remove',
    );
    remove.addEventListener('click', () => void removeFactor(factor, name));
    return h(
      'tr',
      { 'data-factor-id': factor.id },
      h('td', { 'data-label': 'Kind' }, name),
      h('td', { 'data-label': 'Status' }, status === 'active' ? 'Active' : 'Not verified'),
      time('Added', created),
      last_used
        ? time('Last used', last_used)
        : h('td', { 'data-label': 'Last used' }, h('span', { class: 'muted' }, 'never')),
      h('td', { class: 'cell-actions' }, remove),
    );
  }

  /** Disables a button while its action runs; a failure is told in a toast. */
  async function busyWith(button: HTMLButtonElement, action: () => Promise<void>): Promise<void> {
    if (button.getAttribute('aria-disabled') === 'true') return;
    button.setAttribute('aria-disabled', 'true');
    try {
      await action();
    } catch (error) {
      toast(isPasskeyRefusal(error) ? passkeyProblem(error) : messageOf(error), 'error');
    } finally {
      button.removeAttribute('aria-disabled');
    }
  }

  /** Starts an enrolment; beside an active factor, the server asks for a proof first. */
  const enrol = (kind: FactorKind, title: string) =>
    withSecondFactor(session, { title, passkey: hasPasskey() }, (proof) => factors.enrol(kind, proof));

  async function enrolAuthenticatorApp(): Promise<void> {
    const pending = await enrol('totp', 'Confirm a new authenticator app');
    if (!pending) return;
    const verified = await enrolTotp(factors, pending);
    if (verified) await activated(verified, 'Authenticator app added.');
    else await load(); // the pending factor the dialog left is listed until it is removed
  }

  async function enrolPasskey(): Promise<void> {
    const pending = await enrol('webauthn', 'Confirm a new passkey');
    if (!pending) return;
    const { webauthn } = pending.attributes;
    let credential: Awaited<ReturnType<typeof createPasskey>>;
    try {
      credential = await createPasskey(webauthn);
    } finally {
      await load();
    }
    await activated(await factors.verify(pending.id, { credential }), 'Passkey added.');
  }

  async function activated(factor: VerifiedFactor, message: string): Promise<void> {
    toast(message);
    const { recovery_codes } = factor.attributes;
    if (recovery_codes?.length) await showRecoveryCodes(recovery_codes);
    required.hidden = true;
    options.onFactorActivated();
    await load();
  }

  async function regenerateCodes(): Promise<void> {
    const codes = await withSecondFactor(session, { title: 'New recovery codes', passkey: hasPasskey() }, (proof) =>
      factors.regenerateRecoveryCodes(proof),
    );
    if (!codes) return;
    await showRecoveryCodes(codes);
    await load();
  }

  async function removeFactor(factor: FactorResource, name: string): Promise<void> {
    const confirmed = await confirmAction({
      title: `Remove this ${name.toLowerCase()}?`,
      message: 'It will no longer sign you in. Your other factors and recovery codes stay.',
      confirmLabel: 'Remove',
      action: async () => {},
    });
    if (!confirmed) return;
    try {
      const removed = await withSecondFactor(
        session,
        { title: `Remove the ${name.toLowerCase()}`, passkey: hasPasskey() },
        async (proof) => {
          await factors.remove(factor.id, proof);
          return true;
        },
      );
      if (removed) toast(`${name} removed.`);
    } catch (error) {
      toast(messageOf(error), 'error');
    }
    await load();
    listCard.querySelector<HTMLElement>('h2')?.focus();
  }

  const hasPasskey = () =>
    passkeysSupported() &&
    (loaded?.data.some((f) => f.attributes.kind === 'webauthn' && f.attributes.status === 'active') ?? false);

  void load();
  return {
    element: h(
      'div',
      { class: 'shell' },
      appHeader(context, 'security'),
      h(
        'main',
        { class: 'page' },
        h('div', { class: 'page-head' }, heading),
        required,
        h(
          'p',
          { class: 'muted' },
          'A second factor protects this admin account when the password is known to someone else: after the password, signing in asks for a code from an authenticator app or a passkey.',
        ),
        h('div', { class: 'page-actions' }, addTotp, addPasskey),
        listCard,
      ),
    ),
    destroy: () => abort.abort(),
  };
}

function time(label: string, iso: string): HTMLTableCellElement {
  const { text } = formatTimestamp(iso);
  return h('td', { 'data-label': label, class: 'cell-time' }, h('time', { datetime: iso, title: iso }, text));
}

function messageOf(error: unknown): string {
  return error instanceof ApiError ? error.message : 'Something went wrong. Please try again.';
}
