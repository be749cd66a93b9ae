import { AddressRequestLimit, type AddressRequestLimitDeps } from './address-request-limit.ts';

/** Starts one client address may make per minute unless told (OAUTH_STARTS_PER_MINUTE). */
export const DEFAULT_OAUTH_STARTS_PER_MINUTE = 30;

/**
 * The per-client-address limit of the starts of a trip through an identity provider
 * (`GET /v1/oauth/{slug}/authorize`; OAUTH_STARTS_PER_MINUTE): each stores an attempt, and
 * anyone may ask, so an unlimited caller could fill the store.
 */
export class OAuthStartLimit extends AddressRequestLimit {
  constructor(deps: AddressRequestLimitDeps) {
    super(deps, 'oauth-starts', 'Too many sign-ins through identity providers from this address; try again later.');
  }
}
