import { isAbort } from '@uas/client';
import type { UsersApi } from '../api/users-api';
import { apiPathOf, type PageSize } from '../state/list-query';
import { h, uniqueId } from '../ui/dom';
import { field, type Field } from '../ui/field';
import { DEBOUNCE_MS } from './search-box';

const SUGGESTIONS: PageSize = 10;
/** The most users one lookup reads to find the one whose email is exactly the one typed. */
const LOOKUP_SIZE: PageSize = 100;

export interface AccountPicker {
  readonly field: Field<HTMLInputElement>;
  /** The id the field names: as typed, or that of the account with the email typed; null when none has it. */
  resolve(): Promise<string | null>;
  /** Shows an id as the email it was picked by, when it was. */
  show(id: string): void;
  destroy(): void;
}

/** An account the picker knows without asking the users list: an administrator. */
export interface KnownAccount {
  id: string;
  email: string;
}

/**
 * A field naming an account by its email or its id, suggesting the emails of matching admins and
 * users as it is typed. The API filters by id: an email is looked up on submit.
 */
export function accountPicker(options: {
  label: string;
  hint: string;
  name: string;
  users: UsersApi;
  /** The admins the signed-in one may see: all of them for an owner, else only themselves. */
  admins: () => Promise<readonly KnownAccount[]>;
}): AccountPicker {
  const list = h('datalist', { id: uniqueId(`${options.name}-emails`) });
  const input = h('input', {
    type: 'text',
    name: options.name,
    autocomplete: 'off',
    spellcheck: 'false',
    list: list.id,
  });
  const picked = new Map<string, string>();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let inFlight: AbortController | null = null;

  const usersMatching = async (term: string, size: PageSize, signal?: AbortSignal) =>
    (await options.users.list(apiPathOf({ search: term, page: 1, size }), signal)).data;
  const adminsMatching = async (term: string) =>
    (await options.admins().catch(() => [])).filter((admin) => admin.email.toLowerCase().includes(term.toLowerCase()));

  async function suggest(term: string): Promise<void> {
    inFlight?.abort();
    const mine = new AbortController();
    inFlight = mine;
    try {
      const [admins, users] = await Promise.all([adminsMatching(term), usersMatching(term, SUGGESTIONS, mine.signal)]);
      const emails = [...admins.map((admin) => admin.email), ...users.map((u) => u.attributes.email)];
      list.replaceChildren(...emails.map((email) => h('option', { value: email })));
    } catch (error) {
      if (!isAbort(error)) list.replaceChildren();
    }
  }
  input.addEventListener('input', () => {
    clearTimeout(timer);
    const term = input.value.trim();
    if (term.length >= 2) timer = setTimeout(() => void suggest(term), DEBOUNCE_MS);
  });

  const picker = field(options.label, input, options.hint);
  picker.element.append(list);
  return {
    field: picker,
    async resolve() {
      const value = input.value.trim();
      if (!value.includes('@')) return value;
      const email = value.toLowerCase();
      const account =
        (await adminsMatching(email)).find((admin) => admin.email.toLowerCase() === email) ??
        (await usersMatching(email, LOOKUP_SIZE)).find((user) => user.attributes.email.toLowerCase() === email);
      if (account) picked.set(account.id, value);
      return account?.id ?? null;
    },
    show(id) {
      input.value = picked.get(id) ?? id;
    },
    destroy() {
      clearTimeout(timer);
      inFlight?.abort();
    },
  };
}
