import {
  userPrincipals,
  type AuditTrail,
  type Clock,
  type IdGenerator,
  type Logger,
  type OAuthClientRepository,
  type OpenIdRecordRepository,
  type RateCounterRepository,
  type SecretBox,
  type UserRepository,
} from '@uas/domain';
import type { Config } from '../config';
import type { KeyRing } from '../adapters/key-ring';
import { EngineInteractions } from './engine-interactions';
import { engineKeys } from './engine-keys';
import { FirstPartyGrants } from './first-party-grants';
import { GrantRevocations } from './grant-revocations';
import { GrantWriter } from './grant-writer';
import { openIdAdapter } from './openid-adapter';
import { OpenIdEngine } from './openid-engine';
import { engineMount, type EngineMount } from './openid-mount';
import { RecordIds } from './record-ids';
import { RsaCompanionKeys } from './rsa-companion-keys';
import { TokenRefusals } from './token-refusals';

export interface OpenIdProviderDeps {
  config: Pick<
    Config,
    | 'publicUrl'
    | 'jwtAlgorithm'
    | 'accessTokenSeconds'
    | 'refreshTokenSeconds'
    | 'refreshReuseGraceSeconds'
    | 'trustedProxies'
  >;
  records: OpenIdRecordRepository;
  clients: OAuthClientRepository;
  users: UserRepository;
  audit: AuditTrail;
  counters: RateCounterRepository;
  box: SecretBox;
  keyRing: KeyRing;
  clock: Clock;
  ids: IdGenerator;
  logger: Logger;
}

export interface OpenIdProvider {
  /** What the service's Node listener hands the engine's requests to. */
  mount: EngineMount;
  /** What the `/account/authorize/…` pages drive. */
  interactions: EngineInteractions;
  /** The RS256 keys beside the signing keys: made where signing keys are made. */
  companions: RsaCompanionKeys;
}

/** The OpenID Connect provider's parts over the service's ports, with the policy `config` sets. */
export function createOpenIdProvider(deps: OpenIdProviderDeps): OpenIdProvider {
  const { config, records, clients, users, audit, counters, box, keyRing, clock, ids, logger } = deps;
  const companions = new RsaCompanionKeys({ records, clock, ids });
  const grants = new GrantWriter({ audit, clock, ids });
  const engine = new OpenIdEngine({
    issuer: config.publicUrl.replace(/\/$/, ''),
    settings: {
      idTokenAlgorithm: config.jwtAlgorithm,
      accessTokenSeconds: config.accessTokenSeconds,
      refreshTokenSeconds: config.refreshTokenSeconds,
      interactionUrl: (uid) => new URL(`account/authorize/${encodeURIComponent(uid)}`, config.publicUrl).href,
    },
    parts: {
      adapter: openIdAdapter({
        records,
        clients,
        box,
        ids: new RecordIds(box),
        clock,
        revocations: new GrantRevocations({ records, clock, ids }),
        refreshReuseGraceSeconds: config.refreshReuseGraceSeconds,
      }),
      users: userPrincipals(users, clock),
      firstParty: new FirstPartyGrants(clients, grants),
    },
    keys: () => engineKeys({ keyRing, companions, box }),
    refusals: new TokenRefusals({ audit, counters, clock, ids, logger }),
    clock,
    logger,
  });
  return {
    mount: engineMount(engine, { publicUrl: config.publicUrl, trustedProxies: config.trustedProxies, logger }),
    interactions: new EngineInteractions(engine, clients, grants),
    companions,
  };
}
