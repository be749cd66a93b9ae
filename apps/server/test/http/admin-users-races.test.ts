import { describe, expect, it } from 'vitest';
import { BACKENDS } from '../support/test-application';
import { scenarioApplication } from '../support/scenario';
import { RACES } from '../support/races';

/** Truly concurrent requests through the real application: every round's two requests are in flight together. */
describe.each(BACKENDS)('concurrent changes to one user on %s', (backend) => {
  const s = scenarioApplication(backend);

  it.each(RACES)('%s, in every round', { timeout: 120_000 }, async (_, race) => {
    const send = (path: string, init?: RequestInit) => s.client.request(path, init);
    const result = await race({ setup: send, first: send, second: send, adminToken: await s.client.adminToken() });
    expect(result.losses, `${result.losses.length} of ${result.rounds} rounds lost something`).toEqual([]);
  });
});
