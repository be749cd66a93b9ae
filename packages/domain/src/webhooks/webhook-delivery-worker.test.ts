import { describe, expect, it } from '../testing/test-api.ts';
import { FakeSecretBox } from '../testing/fake-mail-ports.ts';
import { ManualClock, SequentialIds } from '../testing/fake-ports.ts';
import { inMemoryRepositories } from '../testing/in-memory-repositories.ts';
import { RecordingLogger } from '../testing/recording-logger.ts';
import { SYSTEM } from '../audit/audit-event.ts';
import { auditRecord, userTarget } from '../audit/audit-records.ts';
import { addSeconds } from '../shared/clock.ts';
import { deliveryId } from './delivery-payload.ts';
import { DEFAULT_WEBHOOK_RETRY_SCHEDULE, nextAttemptAt, parseRetrySchedule } from './delivery-schedule.ts';
import { WebhookDeliveryWorker } from './webhook-delivery-worker.ts';
import { WebhookDispatcher } from './webhook-dispatcher.ts';
import { WebhookSendError, type WebhookRequest, type WebhookResponse, type WebhookSender } from './webhook-sender.ts';
import { WebhookService } from './webhook-service.ts';

class ScriptedSender implements WebhookSender {
  readonly sent: WebhookRequest[] = [];
  answer: () => WebhookResponse = () => ({ status: 204, retryAfterSeconds: null });
  async send(request: WebhookRequest): Promise<WebhookResponse> {
    this.sent.push(request);
    return this.answer();
  }
}

async function setUp(schedule = [5, 300]) {
  const clock = new ManualClock(new Date('2026-01-01T00:00:00.000Z'));
  const repositories = inMemoryRepositories();
  const box = new FakeSecretBox();
  const ids = new SequentialIds();
  const service = new WebhookService({ webhooks: repositories.webhooks, box, clock, ids, urls: { allowHttp: true } });
  const { webhook, secret } = await service.create({ url: 'https://hooks.example.com/in', events: ['*'] });
  const sender = new ScriptedSender();
  const deliveries = repositories.webhookDeliveries;
  const dispatcher = new WebhookDispatcher({ deliveries });
  const worker = new WebhookDeliveryWorker({
    deliveries,
    box,
    sender,
    clock,
    logger: new RecordingLogger(),
    schedule,
    random: () => 0.5,
  });
  const change = (action: 'user.created' | 'user.updated' | 'user.banned' | 'mail.delivered' = 'user.created') =>
    repositories.audit.appendNow(
      auditRecord(ids.next(), clock.now(), SYSTEM, action, userTarget('u-1'), { version: { before: null, after: 1 } }),
    );
  return { clock, repositories, service, webhook, secret, sender, dispatcher, worker, change, deliveries };
}

describe('WebhookDispatcher and WebhookDeliveryWorker', () => {
  it('turn each catalogued event after the cursor into one delivery, sent with the endpoint secret; others send nothing', async () => {
    const s = await setUp();
    const created = s.change('user.created');
    s.change('mail.delivered');
    expect(await s.dispatcher.dispatchAll()).toBeGreaterThanOrEqual(2);
    expect(await s.dispatcher.dispatchAll()).toBe(0); // the cursor moved past them
    expect(await s.worker.deliverDue(10)).toBe(1);
    expect(s.sender.sent).toHaveLength(1);
    const [sent] = s.sender.sent;
    expect(sent!.id).toBe(deliveryId(s.webhook.id, created.seq));
    expect(sent!.secrets).toEqual([s.secret]);
    expect(JSON.parse(sent!.body)).toMatchObject({
      type: 'user.created',
      data: { sequence: created.seq, user: { id: 'u-1', version: 1 } },
    });
    const { deliveries } = await s.deliveries.list(s.webhook.id, { page: 1, size: 10 });
    expect(deliveries[0]).toMatchObject({ status: 'succeeded', attempts: 1, lastStatus: 204 });
  });

  it("records each attempt when it ends: one endpoint whose receiver hangs leaves another's delivery recorded", async () => {
    const s = await setUp();
    const { webhook: slow } = await s.service.create({ url: 'https://slow.example.com/in', events: ['*'] });
    let answerSlow = (_: WebhookResponse) => {};
    s.sender.send = async (request) => {
      s.sender.sent.push(request);
      if (request.url.startsWith('https://slow.')) return new Promise((resolve) => (answerSlow = resolve));
      return { status: 204, retryAfterSeconds: null };
    };
    s.change();
    await s.dispatcher.dispatchAll();
    const claimed = await s.worker.claimDue(10, { max: 10, inFlight: new Map() });
    expect(claimed).toHaveLength(2);
    const attempts = claimed.map(async (claim) => s.worker.record(await s.worker.send(claim)));
    await attempts[claimed.findIndex((claim) => claim.webhookId === s.webhook.id)];
    const [fast] = (await s.deliveries.list(s.webhook.id, { page: 1, size: 10 })).deliveries;
    expect(fast).toMatchObject({ status: 'succeeded', attempts: 1 });
    const [held] = (await s.deliveries.list(slow.id, { page: 1, size: 10 })).deliveries;
    expect(held!.status).toBe('pending'); // still running, under its lease
    answerSlow({ status: 204, retryAfterSeconds: null });
    await Promise.all(attempts);
    expect((await s.deliveries.list(slow.id, { page: 1, size: 10 })).deliveries[0]).toMatchObject({
      status: 'succeeded',
    });
  });

  it('retries a failure on the schedule and fails the delivery after the last try, with the reason', async () => {
    const s = await setUp([5, 300]);
    s.sender.answer = () => {
      throw new WebhookSendError('could not reach the receiver: ECONNREFUSED');
    };
    s.change();
    await s.dispatcher.dispatchAll();
    expect(await s.worker.deliverDue(10)).toBe(1);
    expect(await s.worker.deliverDue(10)).toBe(0); // not due before its wait
    s.clock.advance(5);
    expect(await s.worker.deliverDue(10)).toBe(1);
    s.clock.advance(300);
    expect(await s.worker.deliverDue(10)).toBe(1);
    s.clock.advance(10_000);
    expect(await s.worker.deliverDue(10)).toBe(0);
    const [failed] = (await s.deliveries.list(s.webhook.id, { page: 1, size: 10 })).deliveries;
    expect(failed).toMatchObject({ status: 'failed', attempts: 3 });
    expect(failed!.lastError).toBe('gave up after 3 attempts: could not reach the receiver: ECONNREFUSED');
    expect(s.sender.sent.map((request) => request.id)).toEqual(Array(3).fill(failed!.id)); // one id on every try
  });

  it('fails a delivery at once when the sender says waiting cannot help: no retry, the reason kept', async () => {
    const s = await setUp([5, 300]);
    s.sender.answer = () => {
      throw new WebhookSendError('address not allowed', { permanent: true });
    };
    s.change();
    await s.dispatcher.dispatchAll();
    expect(await s.worker.deliverDue(10)).toBe(1);
    s.clock.advance(10_000);
    expect(await s.worker.deliverDue(10)).toBe(0);
    const [failed] = (await s.deliveries.list(s.webhook.id, { page: 1, size: 10 })).deliveries;
    expect(failed).toMatchObject({ status: 'failed', attempts: 1, lastError: 'address not allowed' });
    expect(s.sender.sent).toHaveLength(1);
  });

  it('honours Retry-After, and a 410 disables the endpoint as gone', async () => {
    const s = await setUp();
    s.sender.answer = () => ({ status: 429, retryAfterSeconds: 120 });
    s.change();
    await s.dispatcher.dispatchAll();
    await s.worker.deliverDue(10);
    const [waiting] = (await s.deliveries.list(s.webhook.id, { page: 1, size: 10 })).deliveries;
    expect(waiting!.nextAttempt).toEqual(addSeconds(s.clock.now(), 120));
    s.sender.answer = () => ({ status: 410, retryAfterSeconds: null });
    s.clock.advance(120);
    await s.worker.deliverDue(10);
    expect(await s.repositories.webhooks.get(s.webhook.id)).toMatchObject({ enabled: false, disabledReason: 'gone' });
  });

  it('disables an endpoint that has failed for five days (failing)', async () => {
    const s = await setUp([86_400, 86_400, 86_400, 86_400, 86_400, 86_400, 86_400]);
    s.sender.answer = () => ({ status: 500, retryAfterSeconds: null });
    s.change();
    await s.dispatcher.dispatchAll();
    await s.worker.deliverDue(10);
    expect((await s.repositories.webhooks.get(s.webhook.id))?.failingSince).toEqual(s.clock.now());
    for (let day = 1; day <= 5; day += 1) {
      s.clock.advance(86_400);
      await s.worker.deliverDue(10);
    }
    expect(await s.repositories.webhooks.get(s.webhook.id)).toMatchObject({
      enabled: false,
      disabledReason: 'failing',
    });
  });
});

describe('the retry schedule', () => {
  it('is the specification by default, strays by at most 20 % and ends after its last wait', () => {
    const now = new Date('2026-01-01T00:00:00.000Z');
    expect(DEFAULT_WEBHOOK_RETRY_SCHEDULE).toEqual([5, 300, 1800, 7200, 18000, 36000, 36000]);
    expect(nextAttemptAt(1, now, [100], () => 0)).toEqual(addSeconds(now, 80));
    expect(nextAttemptAt(1, now, [100], () => 0.75)).toEqual(addSeconds(now, 110));
    expect(nextAttemptAt(2, now, [100], () => 0.5)).toBeNull();
    expect(nextAttemptAt(1, now, [100], () => 0.5, 7)).toEqual(addSeconds(now, 7));
  });

  it('is read from WEBHOOK_RETRY_SCHEDULE as seconds, comma-separated', () => {
    expect(parseRetrySchedule('1, 2,3')).toEqual([1, 2, 3]);
    const problem = (value: string) => {
      try {
        parseRetrySchedule(value);
        return null;
      } catch (error) {
        return (error as Error).message;
      }
    };
    expect(problem('1,soon')).toMatch(/whole seconds/);
    expect(problem('')).toMatch(/whole seconds/);
  });
});
