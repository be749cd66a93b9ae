import { AddressRequestLimit, type AddressRequestLimitDeps } from './address-request-limit.ts';

/** What a refused client is told: nothing about the address in its request, which was not looked at. */
export const MAIL_REQUESTS_REFUSAL = 'Too many requests that send mail from this address; try again later.';

/**
 * The per-client-address limit of the endpoints that send mail (sign-up, recover, resend, email
 * change; MAIL_REQUESTS_PER_MINUTE): a 429 tells nothing about which addresses exist.
 */
export class MailRequestLimit extends AddressRequestLimit {
  constructor(deps: AddressRequestLimitDeps) {
    super(deps, 'mail-requests', MAIL_REQUESTS_REFUSAL);
  }
}
