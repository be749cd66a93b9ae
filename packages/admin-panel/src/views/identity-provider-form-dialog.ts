import { IDENTITY_PROVIDER_KINDS, type IdentityProviderKind } from '@uas/domain';
import type {
  IdentityProviderInput,
  IdentityProviderResource,
  IdentityProvidersApi,
} from '../api/identity-providers-api';
import { h } from '../ui/dom';
import { field } from '../ui/field';
import { FormErrors } from '../ui/form-errors';
import { openModal } from '../ui/modal';

export interface IdentityProviderFormOptions {
  providers: IdentityProvidersApi;
  /** The provider to edit; without it the form adds one. */
  editing?: IdentityProviderResource;
  /** Called with the provider once it is saved. */
  onSaved: (provider: IdentityProviderResource) => void;
}

const KIND_NAMES: Record<IdentityProviderKind, string> = {
  oidc: 'OpenID Connect (any provider, by its issuer)',
  github: 'GitHub',
  google: 'Google',
  microsoft: 'Microsoft',
  apple: 'Apple',
};

/**
 * The add / edit form of an identity provider, in a modal dialog. The client secret is
 * write-only: the field starts empty, and left empty on an edit keeps the stored secret.
 * Resolves when it closes.
 */
export async function openIdentityProviderForm({
  providers,
  editing,
  onSaved,
}: IdentityProviderFormOptions): Promise<void> {
  const slug = field(
    'Slug',
    h('input', { type: 'text', name: 'slug', required: true, autocomplete: 'off', spellcheck: 'false' }),
    'Lower-case letters, digits and dashes; the sign-in and callback URLs name the provider by it. It never changes.',
  );
  const kind = field(
    'Kind',
    h('select', { name: 'kind' }, ...IDENTITY_PROVIDER_KINDS.map((value) => h('option', { value }, KIND_NAMES[value]))),
  );
  const issuer = field(
    'Issuer',
    h('input', { type: 'url', name: 'issuer', autocomplete: 'off', placeholder: 'https://' }),
    'Required for OpenID Connect, exactly as the provider writes it; for the others, only to override theirs (GitHub Enterprise, a Microsoft tenant).',
  );
  const clientId = field('Client ID', h('input', { type: 'text', name: 'client_id', autocomplete: 'off' }));
  const clientSecret = field(
    'Client secret',
    h('input', { type: 'password', name: 'client_secret', autocomplete: 'new-password' }),
    editing
      ? `${editing.attributes.client_secret_set ? 'A secret is stored' : 'No secret is stored'}; it is never shown. Type a new one to replace it, or leave this empty to keep it.`
      : 'Stored encrypted and never shown again. Optional for a public OpenID Connect client; for Apple, the client secret JWT you generated.',
  );
  const scopes = field(
    'Extra scopes',
    h('input', { type: 'text', name: 'scopes', autocomplete: 'off', spellcheck: 'false' }),
    'Separated by spaces, beyond those the kind always asks for (openid email profile).',
  );
  const enabled = field('Users may sign in with it', h('input', { type: 'checkbox', name: 'enabled', checked: true }));
  const autoLink = field(
    'Link to an existing user with the same email',
    h('input', { type: 'checkbox', name: 'auto_link' }),
    "Only when the provider vouches for the email and the user's own address is verified.",
  );
  const fields = {
    slug,
    kind,
    issuer,
    client_id: clientId,
    client_secret: clientSecret,
    scopes,
    enabled,
    auto_link: autoLink,
  };
  const errors = new FormErrors(fields);
  const label = editing ? 'Save changes' : 'Add provider';
  const cancel = h('button', { type: 'button', class: 'button' }, 'Cancel');
  const save = h('button', { type: 'submit', class: 'button primary' }, label);
  const form = h(
    'form',
    { class: 'identity-provider-form', novalidate: true },
    errors.element,
    h(
      'div',
      { class: 'form-grid' },
      ...(editing ? [] : [slug.element, kind.element]),
      issuer.element,
      clientId.element,
      clientSecret.element,
      scopes.element,
      enabled.element,
      autoLink.element,
    ),
    h('div', { class: 'dialog-actions' }, cancel, save),
  );
  if (editing) {
    const { attributes } = editing;
    issuer.control.value = attributes.issuer ?? '';
    clientId.control.value = attributes.client_id;
    scopes.control.value = attributes.scopes.join(' ');
    enabled.control.checked = attributes.enabled;
    autoLink.control.checked = attributes.auto_link;
  }
  const modal = openModal(editing ? `Edit ${editing.attributes.slug}` : 'New sign-in provider', form);
  cancel.addEventListener('click', () => modal.close());
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    void submit();
  });
  (editing ? clientId.control : slug.control).focus();

  async function submit(): Promise<void> {
    if (save.disabled) return;
    errors.clear();
    const secret = clientSecret.control.value;
    const values: IdentityProviderInput & { client_id: string } = {
      issuer: issuer.control.value.trim() || null,
      client_id: clientId.control.value.trim(),
      scopes: scopes.control.value.split(/\s+/).filter(Boolean),
      enabled: enabled.control.checked,
      auto_link: autoLink.control.checked,
      // Write-only: sent only when typed, so an edit without it keeps the stored one.
      ...(secret ? { client_secret: secret } : {}),
    };
    const problems: Record<string, string> = {};
    if (!editing && !slug.control.value.trim()) problems.slug = 'Enter a slug.';
    if (!values.client_id) problems.client_id = 'Enter the client ID the provider issued.';
    if (errors.showProblems(problems)) return;
    save.disabled = true;
    save.textContent = 'Saving…';
    form.setAttribute('aria-busy', 'true');
    try {
      const saved = editing
        ? await providers.update(editing.id, values)
        : await providers.create({
            ...values,
            slug: slug.control.value.trim(),
            kind: kind.control.value as IdentityProviderKind,
          });
      modal.close();
      onSaved(saved);
    } catch (error) {
      errors.showError(error);
    } finally {
      save.disabled = false;
      save.textContent = label;
      form.removeAttribute('aria-busy');
    }
  }

  await modal.closed;
}
