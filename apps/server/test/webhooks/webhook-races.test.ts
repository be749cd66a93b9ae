import { beforeAll, describe, expect, it } from 'vitest';
import { bearer } from '@uas/adapters-http/testing';
import type { AdminClient } from '../support/admin-client';
import { ROUNDS, rounds, tally } from '../support/race-rounds';
import { BACKENDS } from '../support/test-application';
import { twoInstances } from '../support/two-instances';

interface WebhookResource {
  id: string;
  attributes: { events: string[]; enabled: boolean; description: string; secret?: string };
}

const document = (attributes: Record<string, unknown>) => ({ data: { type: 'webhooks', attributes } });

/** Two instances of the real application over one database: every race sends its requests to both at once. */
describe.each(BACKENDS)('webhook endpoint races on %s, across two instances', (backend) => {
  const instances = twoInstances(backend);
  const tokens = new Map<AdminClient, string>();
  let clientA: AdminClient;
  let clientB: AdminClient;
  beforeAll(async () => {
    ({ clientA, clientB } = instances);
    // Logged in once, before the races: each round's requests then only race each other.
    tokens.set(clientA, await clientA.adminToken());
    tokens.set(clientB, await clientB.adminToken());
  });

  const read = async (response: Response) => ((await response.json()) as { data: WebhookResource }).data;
  async function create(index: number) {
    const attributes = { url: `https://race-${index}.example.com/in`, events: ['user.created'] };
    const response = await clientA.send('POST', '/v1/admin/webhooks', document(attributes), tokens.get(clientA));
    expect(response.status).toBe(201);
    return read(response);
  }
  const patch = (client: AdminClient, id: string, attributes: Record<string, unknown>) =>
    client.send('PATCH', `/v1/admin/webhooks/${id}`, document(attributes), tokens.get(client));
  const rotate = (client: AdminClient, id: string) =>
    client.request(`/v1/admin/webhooks/${id}/secret`, { method: 'POST', headers: bearer(tokens.get(client)!) });

  it(`changes of different attributes on both instances at once: none lost, ${ROUNDS} rounds`, async () => {
    const outcomes = await rounds(async (index) => {
      const { id } = await create(index);
      const answers = await Promise.all([
        patch(clientA, id, { events: ['*'] }),
        patch(clientB, id, { description: `round ${index}` }),
        patch(clientB, id, { enabled: false }),
      ]);
      const stored = (await read(await clientA.get(`/v1/admin/webhooks/${id}`, tokens.get(clientA)))).attributes;
      const lost = [
        stored.events.join() !== '*',
        stored.description !== `round ${index}`,
        stored.enabled !== false,
      ].filter(Boolean).length;
      return { statuses: answers.map((answer) => answer.status), lost };
    });
    console.info(`three changes at once (${backend}):`, {
      statuses: tally(outcomes.flatMap((outcome) => outcome.statuses)),
      lost: tally(outcomes.map((outcome) => outcome.lost)),
    });
    expect(outcomes.filter((outcome) => outcome.statuses.some((status) => status !== 200))).toEqual([]);
    expect(outcomes.filter((outcome) => outcome.lost > 0)).toEqual([]);
  }, 120_000);

  it(`two rotations on both instances at once: both answered secrets sign, none other, ${ROUNDS} rounds`, async () => {
    const outcomes = await rounds(async (index) => {
      const { id } = await create(index + ROUNDS);
      const answers = await Promise.all([rotate(clientA, id), rotate(clientB, id)]);
      const answered = await Promise.all(answers.map(async (answer) => (await read(answer)).attributes.secret));
      const { webhooks } = instances.a.useCases;
      const signing = await webhooks.signingSecrets(await webhooks.find(id));
      return {
        statuses: answers.map((answer) => answer.status),
        lost: answered.filter((secret) => !signing.includes(secret!)).length,
        signing: signing.length,
      };
    });
    console.info(`two rotations at once (${backend}):`, {
      statuses: tally(outcomes.flatMap((outcome) => outcome.statuses)),
      lost: tally(outcomes.map((outcome) => outcome.lost)),
    });
    expect(outcomes.filter((outcome) => outcome.statuses.some((status) => status !== 200))).toEqual([]);
    expect(outcomes.filter((outcome) => outcome.lost > 0 || outcome.signing !== 2)).toEqual([]);
    for (const client of [clientA, clientB]) client.expectCleanLogs();
  }, 120_000);
});
