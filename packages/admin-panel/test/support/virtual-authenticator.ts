import type { Page } from 'playwright-core';

/**
 * Chromium's virtual authenticator on a page (CDP `WebAuthn`): a platform authenticator with
 * resident keys and user verification that answers every ceremony by itself, as a person
 * touching a fingerprint reader would. Its credentials live as long as the page.
 */
export async function addVirtualAuthenticator(page: Page): Promise<{ credentialCount(): Promise<number> }> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return {
    credentialCount: async () => (await cdp.send('WebAuthn.getCredentials', { authenticatorId })).credentials.length,
  };
}
