import {
  ID_TOKEN_SIGNING_ALGORITHMS,
  OAUTH_APPLICATION_TYPES,
  OPENID_SCOPES,
  type IdTokenSigningAlgorithm,
  type OAuthApplicationType,
  type OAuthClientType,
  type OpenIdScope,
} from '@uas/domain';
import type {
  OAuthClientInput,
  OAuthClientResource,
  OAuthClientsApi,
  RevealedOAuthClient,
} from '../api/oauth-clients-api';
import { h } from '../ui/dom';
import { field } from '../ui/field';
import { FormErrors } from '../ui/form-errors';
import { openModal } from '../ui/modal';

export interface OAuthClientFormOptions {
  clients: OAuthClientsApi;
  /** The client to edit; without it the form registers one. */
  editing?: OAuthClientResource;
  /** Called with the client once it is saved: a new one with its secret (null for a public client). */
  onSaved: (client: OAuthClientResource | RevealedOAuthClient) => void;
}

const TYPE_NAMES: Record<OAuthClientType, string> = {
  confidential: 'Confidential: a server that keeps a secret',
  public: 'Public: a browser or mobile app (PKCE, no secret)',
};
const APPLICATION_TYPE_NAMES: Record<OAuthApplicationType, string> = {
  web: 'Web: https redirects',
  native: 'Native: loopback and app-scheme redirects (RFC 8252)',
};
/** What each scope lets the application read, in the words of the consent page. */
const SCOPE_NAMES: Record<OpenIdScope, string> = {
  openid: 'openid: who the user is (always)',
  email: 'email: address and whether it is verified',
  profile: 'profile: name',
  metadata: 'metadata: the user’s metadata',
  app: 'app: the app data admins set',
  offline_access: 'offline_access: refresh tokens',
};

const lines = (value: string) =>
  value
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);

/**
 * The register / edit form of an OAuth client, in a modal dialog. Its types are chosen once;
 * redirect URIs are typed one a line, each sent as written but for the line's surrounding spaces
 * (the API judges them, and matches them exactly). Resolves when it closes.
 */
export async function openOAuthClientForm({ clients, editing, onSaved }: OAuthClientFormOptions): Promise<void> {
  const name = field(
    'Name',
    h('input', { type: 'text', name: 'name', required: true, autocomplete: 'off', maxlength: 100 }),
    'Users see it when they sign in and in their list of applications.',
  );
  const type = field(
    'Type',
    h(
      'select',
      { name: 'type' },
      // In TYPE_NAMES' order: a server-side application, the usual case, first.
      ...(Object.keys(TYPE_NAMES) as OAuthClientType[]).map((value) => h('option', { value }, TYPE_NAMES[value])),
    ),
    'It never changes. A confidential client gets a secret, shown once.',
  );
  const applicationType = field(
    'Application type',
    h(
      'select',
      { name: 'application_type' },
      ...OAUTH_APPLICATION_TYPES.map((value) => h('option', { value }, APPLICATION_TYPE_NAMES[value])),
    ),
  );
  const redirectUris = field(
    'Redirect URIs',
    h('textarea', { name: 'redirect_uris', rows: 3, spellcheck: 'false', autocomplete: 'off' }),
    'One a line, matched exactly. A web client: https. A native client: http://127.0.0.1 (any port) or com.example.app:/callback. No wildcards or fragments.',
  );
  const postLogoutRedirectUris = field(
    'Post-logout redirect URIs',
    h('textarea', { name: 'post_logout_redirect_uris', rows: 2, spellcheck: 'false', autocomplete: 'off' }),
    'Optional, one a line, by the same rules.',
  );
  const scopes = field(
    'Scopes it may ask for',
    h(
      'select',
      { name: 'scopes', multiple: true, size: OPENID_SCOPES.length },
      ...OPENID_SCOPES.map((value) => h('option', { value }, SCOPE_NAMES[value])),
    ),
  );
  const firstParty = field(
    'First party: users are not asked to consent',
    h('input', { type: 'checkbox', name: 'first_party' }),
    'Only for applications you run yourself.',
  );
  const idTokenAlgorithm = field(
    'ID token signature',
    h(
      'select',
      { name: 'id_token_signed_response_alg' },
      h('option', { value: '' }, 'As the service signs its tokens'),
      ...ID_TOKEN_SIGNING_ALGORITHMS.map((value) => h('option', { value }, value)),
    ),
    'RS256 for an application whose library knows no other algorithm.',
  );
  const fields = {
    name,
    type,
    application_type: applicationType,
    redirect_uris: redirectUris,
    post_logout_redirect_uris: postLogoutRedirectUris,
    scopes,
    first_party: firstParty,
    id_token_signed_response_alg: idTokenAlgorithm,
  };
  const errors = new FormErrors(fields);
  const label = editing ? 'Save changes' : 'Register application';
  const cancel = h('button', { type: 'button', class: 'button' }, 'Cancel');
  const save = h('button', { type: 'submit', class: 'button primary' }, label);
  const form = h(
    'form',
    { class: 'oauth-client-form', novalidate: true },
    errors.element,
    h(
      'div',
      { class: 'form-grid' },
      name.element,
      ...(editing ? [] : [type.element, applicationType.element]),
      redirectUris.element,
      postLogoutRedirectUris.element,
      scopes.element,
      firstParty.element,
      idTokenAlgorithm.element,
    ),
    h('div', { class: 'dialog-actions' }, cancel, save),
  );
  const given = editing?.attributes;
  name.control.value = given?.name ?? '';
  redirectUris.control.value = given?.redirect_uris.join('\n') ?? '';
  postLogoutRedirectUris.control.value = given?.post_logout_redirect_uris.join('\n') ?? '';
  const chosen = new Set<string>(given?.scopes ?? ['openid', 'email', 'profile']);
  for (const option of scopes.control.options) option.selected = option.value === 'openid' || chosen.has(option.value);
  firstParty.control.checked = given?.first_party ?? false;
  idTokenAlgorithm.control.value = given?.id_token_signed_response_alg ?? '';
  const modal = openModal(editing ? `Edit ${editing.attributes.name}` : 'Register an application', form);
  cancel.addEventListener('click', () => modal.close());
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    void submit();
  });
  name.control.focus();

  async function submit(): Promise<void> {
    if (save.disabled) return;
    errors.clear();
    const values: OAuthClientInput & { name: string; redirect_uris: string[] } = {
      name: name.control.value.trim(),
      redirect_uris: lines(redirectUris.control.value),
      post_logout_redirect_uris: lines(postLogoutRedirectUris.control.value),
      scopes: [...scopes.control.selectedOptions].map((option) => option.value as OpenIdScope),
      first_party: firstParty.control.checked,
      id_token_signed_response_alg: (idTokenAlgorithm.control.value || null) as IdTokenSigningAlgorithm | null,
    };
    const problems: Record<string, string> = {};
    if (!values.name) problems.name = 'Enter a name.';
    if (values.redirect_uris.length === 0) problems.redirect_uris = 'Enter at least one redirect URI.';
    if (errors.showProblems(problems)) return;
    save.disabled = true;
    save.textContent = 'Saving…';
    form.setAttribute('aria-busy', 'true');
    try {
      const saved = editing
        ? await clients.update(editing.id, values)
        : await clients.create({
            ...values,
            type: type.control.value as OAuthClientType,
            application_type: applicationType.control.value as OAuthApplicationType,
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
