import { SYSTEM, type AuditAction, type AuditChanges, type Initiator } from '../audit/audit-event.ts';
import { auditRecord } from '../audit/audit-records.ts';
import type { SecretBox } from '../secrets/secret-box.ts';
import { base64url } from '../shared/base64url.ts';
import type { Clock } from '../shared/clock.ts';
import { NotFoundError, ValidationError } from '../shared/errors.ts';
import type { IdGenerator } from '../shared/id-generator.ts';
import type { JsonValue } from '../shared/json.ts';
import {
  OAUTH_CLIENT_SECRET_PURPOSE,
  type IdTokenSigningAlgorithm,
  type OAuthApplicationType,
  type OAuthClient,
  type OAuthClientDraft,
  type OAuthClientPatch,
  type OAuthClientType,
} from './oauth-client.ts';
import type { OAuthClientRepository } from './oauth-client.repository.ts';
import {
  DEFAULT_OAUTH_CLIENT_SCOPES,
  newOAuthClientIssues,
  normalizeClientScopes,
  normalizeUris,
  oauthClientPatchIssues,
} from './oauth-client.rules.ts';

export interface OAuthClientServiceDeps {
  clients: OAuthClientRepository;
  /** The key ring: client secrets are sealed under `oauth-client-secret`, the client's id as context. */
  box: SecretBox;
  clock: Clock;
  ids: IdGenerator;
  /** The ID token algorithms the service holds keys for: JWT_ALGORITHM's and RS256 (every one unless told). */
  signingAlgorithms?: readonly IdTokenSigningAlgorithm[];
}

/** A client with its secret in clear (null for a public client): what its creation and a rotation answer, once. */
export interface RevealedOAuthClient {
  readonly client: OAuthClient;
  readonly secret: string | null;
}

/** A secret's random bytes: 256 bits, beyond any guessing at the token endpoint. */
const SECRET_BYTES = 32;
/** What an event shows of a secret: whether one is set, never the secret nor its ciphertext. */
const SET = 'set';

/** A new client secret: the base64url of 32 random bytes (Web Crypto's source, in every runtime). */
const generateClientSecret = (): string => base64url(crypto.getRandomValues(new Uint8Array(SECRET_BYTES)));

/** The attributes an event shows, as the API names them. */
function shown(client: OAuthClient | null): Record<string, JsonValue> {
  if (client === null) return {};
  return {
    name: client.name,
    type: client.type,
    application_type: client.applicationType,
    redirect_uris: [...client.redirectUris],
    post_logout_redirect_uris: [...client.postLogoutRedirectUris],
    scopes: [...client.scopes],
    first_party: client.firstParty,
    id_token_signed_response_alg: client.idTokenSigningAlgorithm,
    client_secret: client.secret === null ? null : SET,
  };
}

/**
 * What changed from `before` to `after` (null on either side: the client did not exist). A secret
 * replaced by another shows as a change from `set` to `set`: the two cannot be compared.
 */
function clientChanges(before: OAuthClient | null, after: OAuthClient | null, secretReplaced = false): AuditChanges {
  const [was, is] = [shown(before), shown(after)];
  const changes: Record<string, { before: JsonValue; after: JsonValue }> = {};
  for (const name of new Set([...Object.keys(was), ...Object.keys(is)])) {
    const [from, to] = [was[name] ?? null, is[name] ?? null];
    if (JSON.stringify(from) !== JSON.stringify(to) || (name === 'client_secret' && secretReplaced)) {
      changes[name] = { before: from, after: to };
    }
  }
  return changes;
}

function applyPatch(current: OAuthClient, patch: OAuthClientPatch, now: Date): OAuthClient {
  return {
    ...current,
    name: patch.name ?? current.name,
    redirectUris: patch.redirectUris === undefined ? current.redirectUris : normalizeUris(patch.redirectUris),
    postLogoutRedirectUris:
      patch.postLogoutRedirectUris === undefined
        ? current.postLogoutRedirectUris
        : normalizeUris(patch.postLogoutRedirectUris),
    scopes: patch.scopes === undefined ? current.scopes : normalizeClientScopes(patch.scopes),
    firstParty: patch.firstParty ?? current.firstParty,
    idTokenSigningAlgorithm:
      patch.idTokenSigningAlgorithm === undefined
        ? current.idTokenSigningAlgorithm
        : (patch.idTokenSigningAlgorithm as IdTokenSigningAlgorithm | null),
    updated: now,
  };
}

/** Rotating the secret of a client that has none. */
const NO_SECRET = {
  source: { pointer: '/data/attributes/type' },
  detail: 'type is public: a public client has no secret to rotate',
};

/**
 * The applications that sign their users in through this service, as owners manage them. A
 * confidential client's secret is generated here, answered once (on creation and on rotation) and
 * stored only sealed; every change is audited in its transaction, showing of the secret only that
 * one is set.
 */
export class OAuthClientService {
  constructor(private readonly deps: OAuthClientServiceDeps) {}

  list(): Promise<OAuthClient[]> {
    return this.deps.clients.list();
  }

  async find(id: string): Promise<OAuthClient> {
    const client = await this.deps.clients.get(id);
    if (!client) throw new NotFoundError('OAuth client');
    return client;
  }

  /** Registers a client (`web`, allowed `openid email profile`, not first party, unless told); a confidential one gets its secret. */
  async create(draft: OAuthClientDraft, by: Initiator = SYSTEM): Promise<RevealedOAuthClient> {
    const issues = newOAuthClientIssues(draft, this.deps.signingAlgorithms);
    if (issues.length > 0) throw new ValidationError(issues);
    const { clients, clock, ids } = this.deps;
    const now = clock.now();
    const id = ids.next();
    const type = draft.type as OAuthClientType;
    const secret = type === 'confidential' ? generateClientSecret() : null;
    const client: OAuthClient = {
      id,
      name: draft.name,
      type,
      applicationType: (draft.applicationType ?? 'web') as OAuthApplicationType,
      redirectUris: normalizeUris(draft.redirectUris),
      postLogoutRedirectUris: normalizeUris(draft.postLogoutRedirectUris ?? []),
      scopes: normalizeClientScopes(draft.scopes ?? DEFAULT_OAUTH_CLIENT_SCOPES),
      firstParty: draft.firstParty ?? false,
      idTokenSigningAlgorithm: (draft.idTokenSigningAlgorithm ?? null) as IdTokenSigningAlgorithm | null,
      secret: secret === null ? null : await this.seal(secret, id),
      created: now,
      updated: now,
    };
    const stored = await clients.create(
      client,
      this.record(by, 'oauth_client.created', id, now, clientChanges(null, client)),
    );
    return { client: stored, secret };
  }

  /** Changes what the patch names; an unchanged client is answered as it is, with no event. */
  async update(id: string, patch: OAuthClientPatch, by: Initiator = SYSTEM): Promise<OAuthClient> {
    // The application type decides the URI rules, and never changes: reading it first is no race.
    const { applicationType } = await this.find(id);
    const issues = oauthClientPatchIssues(patch, applicationType, this.deps.signingAlgorithms);
    if (issues.length > 0) throw new ValidationError(issues);
    const now = this.deps.clock.now();
    const updated = await this.deps.clients.update(id, (current) => {
      const next = applyPatch(current, patch, now);
      const changes = clientChanges(current, next);
      if (Object.keys(changes).length === 0) return { client: current, audit: null };
      return { client: next, audit: this.record(by, 'oauth_client.updated', id, now, changes) };
    });
    if (!updated) throw new NotFoundError('OAuth client');
    return updated;
  }

  /** Replaces a confidential client's secret by a new one, answered once; the old one stops working at once. */
  async rotateSecret(id: string, by: Initiator = SYSTEM): Promise<RevealedOAuthClient> {
    const { type } = await this.find(id);
    if (type !== 'confidential') throw new ValidationError([NO_SECRET]);
    const secret = generateClientSecret();
    const sealed = await this.seal(secret, id);
    const now = this.deps.clock.now();
    const rotated = await this.deps.clients.update(id, (current) => {
      const next = { ...current, secret: sealed, updated: now };
      return {
        client: next,
        audit: this.record(by, 'oauth_client.secret_rotated', id, now, clientChanges(current, next, true)),
      };
    });
    if (!rotated) throw new NotFoundError('OAuth client');
    return { client: rotated, secret };
  }

  /** Removes a client: its grants, codes and tokens go with it, and stop working at once. */
  async delete(id: string, by: Initiator = SYSTEM): Promise<void> {
    const client = await this.find(id);
    const now = this.deps.clock.now();
    const removed = await this.deps.clients.delete(
      id,
      this.record(by, 'oauth_client.deleted', id, now, clientChanges(client, null)),
    );
    if (!removed) throw new NotFoundError('OAuth client');
  }

  private seal(secret: string, id: string) {
    return this.deps.box.seal(OAUTH_CLIENT_SECRET_PURPOSE, secret, id);
  }

  private record(by: Initiator, action: AuditAction, id: string, now: Date, changes: AuditChanges) {
    return auditRecord(this.deps.ids.next(), now, by, action, { type: 'oauth_clients', id }, changes);
  }
}
