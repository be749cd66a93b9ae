import { AddressRequestLimit, type AddressRequestLimitDeps } from './address-request-limit.ts';

/**
 * The per-client-address limit of the passkey options (`POST /v1/login/passkey/options` and the
 * admin one; PASSKEY_OPTIONS_PER_MINUTE): each answer stores a challenge, so an unlimited caller
 * could fill the store.
 */
export class PasskeyOptionsLimit extends AddressRequestLimit {
  constructor(deps: AddressRequestLimitDeps) {
    super(deps, 'passkey-options', 'Too many passkey challenges from this address; try again later.');
  }
}
