import { expect } from 'vitest';

/**
 * Checks a response for what must never appear in it: passwords, password hashes, tokens. Reads
 * a clone, so the caller can still read the body.
 */
export async function expectNoSecrets(response: Response, secrets: readonly string[]): Promise<void> {
  const text = `${[...response.headers].map(([name, value]) => `${name}: ${value}`).join('\n')}\n${await response.clone().text()}`;
  for (const secret of secrets)
    expect(text, `response must not contain ${JSON.stringify(secret)}`).not.toContain(secret);
}
