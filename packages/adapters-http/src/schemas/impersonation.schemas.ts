import { IMPERSONATION_RULES } from '@uas/domain';
import * as v from 'valibot';
import { closedObject } from './json-api.schemas';
import { proofMembers } from './factor.schemas';

/**
 * POST /v1/admin/users/{id}/impersonation: why, and the admin's second-factor proof when they
 * have an active factor (as a step-up sends it).
 */
export const impersonationDocument = closedObject(
  {
    reason: v.pipe(
      v.string('reason is required: say why you act as this user'),
      v.maxLength(IMPERSONATION_RULES.reasonMaxLength),
      v.description('Why you act as this user: kept in the audit trail with the event.'),
    ),
    ...proofMembers,
  },
  'member',
);
