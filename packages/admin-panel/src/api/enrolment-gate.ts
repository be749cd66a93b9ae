import type { AdminSession } from '@uas/client';

/** What every admin route but the factors' answers (403) while ADMIN_MFA=required and no factor is active. */
const ENROLMENT_REQUIRED = 'mfa_enrolment_required';

/** Calls `onRequired` whenever a call through the session is refused until the admin enrols a factor. */
export function watchEnrolmentGate(session: AdminSession, onRequired: () => void): void {
  session.api.use({
    onResponse: async ({ response }) => {
      if (response.status !== 403) return undefined;
      const body = (await response
        .clone()
        .json()
        .catch(() => null)) as { errors?: { code?: string }[] } | null;
      if (body?.errors?.some((error) => error.code === ENROLMENT_REQUIRED)) onRequired();
      return undefined;
    },
  });
}
