import { SYSTEM, type AuditAction, type AuditChanges, type Initiator } from '../audit/audit-event.ts';
import { auditRecord } from '../audit/audit-records.ts';
import type { SealedText } from '../secrets/secret.ts';
import type { SecretBox } from '../secrets/secret-box.ts';
import type { Clock } from '../shared/clock.ts';
import { NotFoundError, ValidationError } from '../shared/errors.ts';
import type { IdGenerator } from '../shared/id-generator.ts';
import type { JsonValue } from '../shared/json.ts';
import type {
  IdentityProvider,
  IdentityProviderDraft,
  IdentityProviderKind,
  IdentityProviderPatch,
} from './identity-provider.ts';
import type { IdentityProviderRepository } from './identity-provider.repository.ts';
import {
  identityProviderCallbackUrl,
  identityProviderPatchIssues,
  newIdentityProviderIssues,
  normalizeScopes,
  type IssuerPolicy,
} from './identity-provider.rules.ts';

/** The key ring's purpose client secrets are sealed under, each with its provider's id as context. */
export const IDENTITY_PROVIDER_SECRET_PURPOSE = 'identity-provider-secret';

export interface IdentityProviderServiceDeps {
  providers: IdentityProviderRepository;
  /** The key ring: client secrets are sealed under `identity-provider-secret`, the provider's id as context. */
  box: SecretBox;
  clock: Clock;
  ids: IdGenerator;
  /** What the operator allows of issuers (IDENTITY_PROVIDER_ALLOW_HTTP). */
  issuers: IssuerPolicy;
  /** The service's public base address, ending in `/` (PUBLIC_URL): callback URLs are built on it. */
  publicUrl: string;
}

/** What an event shows of a secret: whether one is set, never the secret nor its ciphertext. */
const SET = 'set';

/** The attributes an event shows, as the API names them. */
function shown(provider: IdentityProvider | null): Record<string, JsonValue> {
  if (provider === null) return {};
  return {
    slug: provider.slug,
    kind: provider.kind,
    issuer: provider.issuer,
    client_id: provider.clientId,
    client_secret: provider.clientSecret === null ? null : SET,
    scopes: [...provider.scopes],
    enabled: provider.enabled,
    auto_link: provider.autoLink,
  };
}

/**
 * What changed from `before` to `after` (null on either side: the provider did not exist). A
 * secret replaced by another shows as a change from `set` to `set`: the two cannot be compared.
 */
function providerChanges(
  before: IdentityProvider | null,
  after: IdentityProvider | null,
  secretReplaced = false,
): AuditChanges {
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

/** An admin's change of a provider, its secret already sealed (undefined: kept). */
function applyPatch(
  current: IdentityProvider,
  patch: IdentityProviderPatch,
  sealedSecret: SealedText | null | undefined,
  now: Date,
): IdentityProvider {
  return {
    ...current,
    issuer: patch.issuer === undefined ? current.issuer : patch.issuer,
    clientId: patch.clientId ?? current.clientId,
    clientSecret: sealedSecret === undefined ? current.clientSecret : sealedSecret,
    scopes: patch.scopes === undefined ? current.scopes : normalizeScopes(patch.scopes),
    enabled: patch.enabled ?? current.enabled,
    autoLink: patch.autoLink ?? current.autoLink,
    updated: now,
  };
}

/** Refusing an issuer change once users sign in through the provider: its subjects belong to its issuer. */
const ISSUER_HELD = {
  source: { pointer: '/data/attributes/issuer' },
  detail:
    'issuer cannot change while users have identities through this provider (their subjects belong to the old issuer): create a new provider instead',
};

/**
 * The identity providers users may sign in with, as owners manage them. A client secret is sealed
 * before it is stored and never answered; every change is audited in its transaction, showing of
 * the secret only whether one is set.
 */
export class IdentityProviderService {
  constructor(private readonly deps: IdentityProviderServiceDeps) {}

  list(): Promise<IdentityProvider[]> {
    return this.deps.providers.list();
  }

  async find(id: string): Promise<IdentityProvider> {
    const provider = await this.deps.providers.get(id);
    if (!provider) throw new NotFoundError('identity provider');
    return provider;
  }

  /** What the admin registers at the provider as its redirect URI. */
  callbackUrl(provider: Pick<IdentityProvider, 'slug'>): string {
    return identityProviderCallbackUrl(this.deps.publicUrl, provider.slug);
  }

  /** Adds a provider, enabled unless told, linking by email only when told (`auto_link`). */
  async create(draft: IdentityProviderDraft, by: Initiator = SYSTEM): Promise<IdentityProvider> {
    const issues = newIdentityProviderIssues(draft, this.deps.issuers);
    if (issues.length > 0) throw new ValidationError(issues);
    const { providers, clock, ids } = this.deps;
    const now = clock.now();
    const id = ids.next();
    const provider: IdentityProvider = {
      id,
      slug: draft.slug,
      kind: draft.kind as IdentityProviderKind,
      issuer: draft.issuer ?? null,
      clientId: draft.clientId,
      clientSecret: draft.clientSecret ? await this.seal(draft.clientSecret, id) : null,
      scopes: normalizeScopes(draft.scopes ?? []),
      enabled: draft.enabled ?? true,
      autoLink: draft.autoLink ?? false,
      created: now,
      updated: now,
    };
    return providers.create(
      provider,
      this.record(by, 'identity_provider.created', id, now, providerChanges(null, provider)),
    );
  }

  /**
   * Changes what the patch names; `client_secret` replaces the secret (null removes it, for a
   * generic OIDC provider only). An unchanged provider is answered as it is, with no event.
   */
  async update(id: string, patch: IdentityProviderPatch, by: Initiator = SYSTEM): Promise<IdentityProvider> {
    // The kind decides what is required, and never changes: reading it first is no race.
    const { kind } = await this.find(id);
    const issues = identityProviderPatchIssues(patch, kind, this.deps.issuers);
    if (issues.length > 0) throw new ValidationError(issues);
    const sealed =
      typeof patch.clientSecret === 'string' ? await this.seal(patch.clientSecret, id) : patch.clientSecret;
    const now = this.deps.clock.now();
    const updated = await this.deps.providers.update(id, (current, hasIdentities) => {
      const next = applyPatch(current, patch, sealed, now);
      // Subjects are unique only per issuer: at another one, the same subjects are strangers.
      if (hasIdentities && next.issuer !== current.issuer) throw new ValidationError([ISSUER_HELD]);
      const changes = providerChanges(current, next, typeof patch.clientSecret === 'string');
      if (Object.keys(changes).length === 0) return { provider: current, audit: null };
      return { provider: next, audit: this.record(by, 'identity_provider.updated', id, now, changes) };
    });
    if (!updated) throw new NotFoundError('identity provider');
    return updated;
  }

  /** Removes a provider: its users' identities through it and its attempts in flight go with it. */
  async delete(id: string, by: Initiator = SYSTEM): Promise<void> {
    const provider = await this.find(id);
    const now = this.deps.clock.now();
    const removed = await this.deps.providers.delete(
      id,
      this.record(by, 'identity_provider.deleted', id, now, providerChanges(provider, null)),
    );
    if (!removed) throw new NotFoundError('identity provider');
  }

  private seal(secret: string, id: string) {
    return this.deps.box.seal(IDENTITY_PROVIDER_SECRET_PURPOSE, secret, id);
  }

  private record(by: Initiator, action: AuditAction, id: string, now: Date, changes: AuditChanges) {
    return auditRecord(this.deps.ids.next(), now, by, action, { type: 'identity_providers', id }, changes);
  }
}
