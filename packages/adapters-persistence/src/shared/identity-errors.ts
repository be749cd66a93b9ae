import { IdentityAlreadyLinkedError, SlugTakenError } from '@uas/domain';
import { isForeignKeyViolation, isUniqueViolation } from './driver-errors';

/** IdentityAlreadyLinkedError for a second row of one (provider, subject); anything else as it came. */
export function identityTakenOr(error: unknown): unknown {
  return isUniqueViolation(
    error,
    'external_identities_provider_subject_idx',
    'external_identities.provider_id, external_identities.subject',
  )
    ? new IdentityAlreadyLinkedError()
    : error;
}

/**
 * What a failed link answers: null when its user (or provider) is gone, IdentityAlreadyLinkedError
 * when the identity is linked already; anything else is thrown as it came.
 */
export function linkedOrNull(error: unknown): null {
  if (isForeignKeyViolation(error)) return null;
  throw identityTakenOr(error);
}

/** SlugTakenError for a second provider with the slug; anything else as it came. */
export function slugTakenOr(error: unknown): unknown {
  return isUniqueViolation(error, 'identity_providers_slug_unique', 'identity_providers.slug')
    ? new SlugTakenError()
    : error;
}
