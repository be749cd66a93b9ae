import { ApiError, type UserAttributes, type UserResource } from '@uas/client';
import type { UsersApi } from '../api/users-api';
import { formatJson, parseJsonObject } from '../state/json-object';
import { changedAttributes, createAttributes, type UserFormValues } from '../state/user-changes';
import { h } from '../ui/dom';
import { field } from '../ui/field';
import { FormErrors } from '../ui/form-errors';
import { openModal } from '../ui/modal';
import { toast } from '../ui/toast';

export interface UserFormOptions {
  users: UsersApi;
  /** The user to edit; without it the form creates a user. */
  userId?: string;
  onSaved: (user: UserResource) => void;
}

/** The create / edit form, in a modal dialog. Resolves when the dialog closes. */
export async function openUserForm({ users, userId, onSaved }: UserFormOptions): Promise<void> {
  const editing = userId !== undefined;
  const fields = {
    name: field('Name', h('input', { type: 'text', name: 'name', autocomplete: 'off' })),
    email: field('Email', h('input', { type: 'email', name: 'email', autocomplete: 'off', required: true })),
    password: field(
      'Password',
      h('input', {
        type: 'password',
        name: 'password',
        autocomplete: 'new-password',
        required: !editing,
      }),
      editing ? 'Leave blank to keep the current password.' : '8 to 72 bytes.',
    ),
    active: field('Active (may sign in)', h('input', { type: 'checkbox', name: 'active', checked: true })),
    email_verified: field(
      'Email verified',
      h('input', { type: 'checkbox', name: 'email_verified', checked: true }),
      'Unchecked: the user must follow a verification link before signing in, when verification is required.',
    ),
    metadata: field(
      'Metadata',
      jsonInput('metadata'),
      'JSON object; the user may change it. Becomes the metadata claim.',
    ),
    app: field('App', jsonInput('app'), 'JSON object; only admins may change it. Becomes the app claim.'),
  };
  const errors = new FormErrors(fields);
  const cancel = h('button', { type: 'button', class: 'button' }, 'Cancel');
  const reload = h('button', { type: 'button', class: 'button', hidden: true }, 'Reload user');
  const save = h('button', { type: 'submit', class: 'button primary' }, editing ? 'Save changes' : 'Create user');
  const form = h(
    'form',
    { class: 'user-form', novalidate: true },
    errors.element,
    h('div', { class: 'form-grid' }, ...Object.values(fields).map((f) => f.element)),
    h('div', { class: 'dialog-actions' }, cancel, reload, save),
  );
  const modal = openModal(editing ? 'Edit user' : 'New user', form);
  cancel.addEventListener('click', () => modal.close());
  reload.addEventListener('click', () => {
    if (!userId) return;
    reload.hidden = true;
    errors.clear();
    void load(userId);
  });

  let original: UserAttributes | null = null;
  /** The ETag of the user as loaded: the save applies only if nobody changed the user since. */
  let etag: string | null = null;
  if (editing) await load(userId);
  fields.name.control.focus();

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    void submit();
  });

  async function load(id: string): Promise<void> {
    setBusy(true, 'Loading…');
    try {
      const loaded = await users.getTagged(id);
      original = loaded.user.attributes;
      etag = loaded.etag;
      fill(original);
      setBusy(false);
    } catch (error) {
      errors.showError(error);
      save.textContent = 'Save changes';
    }
  }

  function fill(user: UserAttributes): void {
    fields.name.control.value = user.name;
    fields.email.control.value = user.email;
    fields.active.control.checked = user.active === 1;
    fields.email_verified.control.checked = user.email_verified !== null;
    fields.metadata.control.value = formatJson(user.metadata ?? {});
    fields.app.control.value = formatJson(user.app ?? {});
  }

  function readValues(): UserFormValues | null {
    const metadata = parseJsonObject(fields.metadata.control.value);
    const app = parseJsonObject(fields.app.control.value);
    const problems: Record<string, string> = {};
    if (!metadata.ok) problems.metadata = metadata.problem;
    if (!app.ok) problems.app = app.problem;
    if (errors.showProblems(problems) || !metadata.ok || !app.ok) return null;
    return {
      name: fields.name.control.value,
      email: fields.email.control.value.trim(),
      password: fields.password.control.value,
      active: fields.active.control.checked ? 1 : 0,
      email_verified: fields.email_verified.control.checked,
      metadata: metadata.value,
      app: app.value,
    };
  }

  async function submit(): Promise<void> {
    if (save.disabled) return;
    errors.clear();
    const values = readValues();
    if (!values) return;
    const changes = original ? changedAttributes(original, values) : createAttributes(values);
    if (editing && Object.keys(changes).length === 0) {
      modal.close();
      toast('Nothing changed.');
      return;
    }
    setBusy(true, 'Saving…');
    try {
      const user = editing ? await users.update(userId, changes, etag) : await users.create(changes);
      modal.close();
      onSaved(user);
    } catch (error) {
      if (error instanceof ApiError && error.status === 412) {
        errors.showForm([CHANGED_ELSEWHERE]);
        reload.hidden = false;
        reload.focus();
      } else {
        errors.showError(error);
      }
    } finally {
      setBusy(false);
    }
  }

  function setBusy(busy: boolean, label?: string): void {
    save.disabled = busy;
    save.textContent = busy && label ? label : editing ? 'Save changes' : 'Create user';
    if (busy) form.setAttribute('aria-busy', 'true');
    else form.removeAttribute('aria-busy');
  }

  await modal.closed;
}

const CHANGED_ELSEWHERE =
  'This user was changed elsewhere after you opened it, so nothing was saved. Reload the user to see the current values (your edits here will be replaced), then make your change again.';

function jsonInput(name: string): HTMLTextAreaElement {
  return h(
    'textarea',
    {
      name,
      rows: 4,
      spellcheck: 'false',
      autocapitalize: 'off',
      class: 'code',
      placeholder: '{}',
    },
    '{}',
  );
}
