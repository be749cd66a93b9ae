import { showSecretOnce } from './secret-once-dialog';

/** Shows an endpoint's signing secret this once. Resolves when the admin closes the dialog. */
export const showWebhookSecret = (url: string, secret: string): Promise<void> =>
  showSecretOnce({
    title: 'Save the signing secret',
    label: 'Signing secret',
    purpose: `Every delivery to ${url} is signed with this secret. Give it to the receiver, which verifies each request with it (any Standard Webhooks library does).`,
    secret,
  });
