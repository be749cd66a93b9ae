import { describe, expect, it } from '../testing/test-api.ts';
import { FakeSecretBox, RecordingMailer } from '../testing/fake-mail-ports.ts';
import { ManualClock, SequentialIds } from '../testing/fake-ports.ts';
import { InMemoryAuditTrail } from '../testing/in-memory-audit-trail.ts';
import { InMemoryMailQueue } from '../testing/in-memory-mail.ts';
import type { Logger } from '../shared/logger.ts';
import { ValidationError } from '../shared/errors.ts';
import { MailDelivery } from './mail-delivery.ts';
import { DEFAULT_MAIL_RETRY, retryDelaySeconds } from './mail-message.ts';
import { MailService } from './mail-service.ts';
import { DEFAULT_MAIL_TEMPLATES } from './mail-template.ts';

function setUp() {
  const clock = new ManualClock(new Date('2026-01-01T00:00:00.000Z'));
  const audit = new InMemoryAuditTrail();
  const queue = new InMemoryMailQueue(audit);
  const box = new FakeSecretBox();
  const mailer = new RecordingMailer();
  const lines: string[] = [];
  const log = (msg: string, fields?: object) => lines.push(`${msg} ${JSON.stringify(fields)}`);
  const logger: Logger = { debug: log, info: log, warn: log, error: log };
  const templates = {
    of: () => ({ ...DEFAULT_MAIL_TEMPLATES.test, text: 'Open https://x.test/?token={{recipient}}' }),
  };
  const service = new MailService({ queue, box, templates, clock, ids: new SequentialIds(), logger });
  const delivery = new MailDelivery({ queue, box, mailer, clock, ids: new SequentialIds(), logger });
  return { clock, queue, mailer, lines, service, delivery, audit };
}

describe('MailDelivery', () => {
  it('delivers a queued message once, opened, and the outbox then has no body', async () => {
    const { queue, mailer, service, delivery, lines, audit } = setUp();
    const { id } = await service.sendTest('Ann@Example.com');
    expect((await service.read(id)).content?.text).toBe('Open https://x.test/?token=ann@example.com');
    expect(await delivery.deliverDue(10)).toEqual({ claimed: 1, delivered: 1, unreachable: false });
    expect(await delivery.deliverDue(10)).toEqual({ claimed: 0, delivered: 0, unreachable: false });
    expect(mailer.delivered).toEqual([expect.any(Object)]);
    expect(mailer.delivered[0]).toMatchObject({
      id,
      to: 'ann@example.com',
      text: 'Open https://x.test/?token=ann@example.com',
    });
    expect(await queue.findById(id)).toMatchObject({ status: 'delivered', body: null });
    expect((await audit.list({ page: 1, size: 10 })).events).toMatchObject([
      { action: 'mail.delivered', actor: { type: 'system' }, target: { type: 'mail-messages', id } },
    ]);
    expect((await service.read(id)).content).toBeNull();
    expect(lines.join('\n')).not.toContain('token=');
  });

  it('retries a refused message on the backoff schedule, then gives up', async () => {
    const { clock, queue, mailer, service, delivery } = setUp();
    const { id } = await service.sendTest('ann@example.com');
    mailer.failing = 'transient';
    const waits: number[] = [];
    for (let attempt = 1; attempt <= DEFAULT_MAIL_RETRY.maxAttempts; attempt += 1) {
      expect((await delivery.deliverDue(10)).claimed).toBe(1);
      const stored = await queue.findById(id);
      if (stored?.status !== 'queued') break;
      const wait = (stored.nextAttemptAt!.getTime() - clock.now().getTime()) / 1000;
      waits.push(wait);
      clock.advance(wait - 1);
      expect((await delivery.deliverDue(10)).claimed).toBe(0);
      clock.advance(1);
    }
    expect(waits.slice(0, 9)).toEqual([5, 10, 20, 40, 80, 160, 320, 600, 600]);
    expect(waits).toHaveLength(DEFAULT_MAIL_RETRY.maxAttempts - 1);
    expect(await queue.findById(id)).toMatchObject({
      status: 'failed',
      attempts: DEFAULT_MAIL_RETRY.maxAttempts,
      body: null,
      lastError: `gave up after ${DEFAULT_MAIL_RETRY.maxAttempts} attempts: the server said no (transient)`,
    });
    expect(retryDelaySeconds(100)).toBe(600);
  });

  it('fails a message the server refuses for good at once, audited as failed', async () => {
    const { queue, mailer, service, delivery, audit } = setUp();
    const { id } = await service.sendTest('ann@example.com');
    mailer.failing = 'permanent';
    await delivery.deliverDue(10);
    expect(await queue.findById(id)).toMatchObject({
      status: 'failed',
      attempts: 1,
      lastError: 'the server said no (permanent)',
    });
    expect((await audit.list({ page: 1, size: 10 })).events.map((event) => event.action)).toEqual(['mail.failed']);
  });

  it('while the server is unreachable, messages stay due and their attempts are not counted', async () => {
    const { queue, mailer, service, delivery } = setUp();
    const { id } = await service.sendTest('ann@example.com');
    mailer.failing = 'unreachable';
    for (let i = 0; i < 30; i += 1) expect((await delivery.deliverDue(10)).unreachable).toBe(true);
    expect(await queue.findById(id)).toMatchObject({
      status: 'queued',
      attempts: 0,
      lastError: 'the server said no (unreachable)',
    });
    mailer.failing = null;
    expect(await delivery.deliverDue(10)).toEqual({ claimed: 1, delivered: 1, unreachable: false });
  });

  it('reads a body that no longer opens as none, saying so in the log', async () => {
    const { queue, service, lines } = setUp();
    const { id, body, ...rest } = await service.compose('test', 'ann@example.com', { recipient: 'ann@example.com' });
    await queue.enqueue({ id, ...rest, body: { ...body, keyId: 'gone' } });
    expect((await service.read(id)).content).toBeNull();
    expect(lines.join('\n')).toContain('a mail body does not open');
  });

  it('refuses to queue a test message to something that is not an address', async () => {
    const { service } = setUp();
    let thrown: unknown;
    await service.sendTest('not an address').catch((error: unknown) => (thrown = error));
    expect(thrown).toBeInstanceOf(ValidationError);
  });
});
