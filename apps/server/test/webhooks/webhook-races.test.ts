import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer } from '@uas/adapters-http/testing';
import { AdminClient } from '../support/admin-client';
import { ROUNDS, rounds, tally } from '../support/race-rounds';
import { BACKENDS, startTestApplication, type TestApplication } from '../support/test-application';

interface WebhookResource {
  id: string;
  attributes: { events: string[]; enabled: boolean; description: string; secret?: string };
}

const document = (attributes: Record<string, unknown>) => ({ data: { type: 'webhooks', attributes } });

/**
 * Two instances of the real application over one database, as two processes behind a load
 * balancer: every race sends its requests to both at once.
 */
describe.each(BACKENDS)('webhook endpoint races on %s, across two instances', (backend) => {
  let a: TestApplication;
  let b: TestApplication;
  let clientA: AdminClient;
  let clientB: AdminClient;
  const tokens = new Map<AdminClient, string>();
  beforeAll(async () => {
    a = await startTestApplication(backend);
    const shared = Object.fromEntries(
      Object.entries(a.env).filter(([name]) => ['DATABASE_URL', 'DATABASE_SCHEMA', 'ADMIN_KEY_PATH'].includes(name)),
    );
    b = await startTestApplication(backend, shared);
    [clientA, clientB] = [new AdminClient(a), new AdminClient(b)];
    // Logged in once, before the races: each round's requests then only race each other.
    tokens.set(clientA, await clientA.adminToken());
    tokens.set(clientB, await clientB.adminToken());
  }, 60_000);
  afterAll(async () => {
    await b?.close();
    await a?.close();
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
      const signing = await a.useCases.webhooks.signingSecrets(await a.useCases.webhooks.find(id));
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
