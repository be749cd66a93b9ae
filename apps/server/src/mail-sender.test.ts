import { describe, expect, it } from 'vitest';
import { MailDelivery, MailService, DEFAULT_MAIL_TEMPLATES, type Logger } from '@uas/domain';
import {
  FakeSecretBox,
  InMemoryAuditTrail,
  InMemoryMailQueue,
  RecordingMailer,
  SequentialIds,
} from '@uas/domain/testing';
import { SystemClock } from './adapters/system-clock';
import { startMailSender } from './mail-sender';

function setUp() {
  const queue = new InMemoryMailQueue(new InMemoryAuditTrail());
  const box = new FakeSecretBox();
  const mailer = new RecordingMailer();
  const clock = new SystemClock();
  const lines: string[] = [];
  const log = (msg: string) => lines.push(msg);
  const logger: Logger = { debug: log, info: log, warn: log, error: log };
  const templates = { of: () => DEFAULT_MAIL_TEMPLATES.test };
  const service = new MailService({ queue, box, templates, clock, ids: new SequentialIds(), logger });
  const delivery = new MailDelivery({ queue, box, mailer, clock, ids: new SequentialIds(), logger });
  return { queue, mailer, lines, service, delivery, logger };
}

const until = async (condition: () => boolean) => {
  for (let waited = 0; !condition(); waited += 10) {
    if (waited > 10_000) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
};

describe('startMailSender', () => {
  it('delivers what is queued, more than one round of it, and stops at once when idle', async () => {
    const { mailer, service, delivery, logger } = setUp();
    for (let n = 0; n < 10; n += 1) await service.sendTest(`person${n}@example.com`);
    const sender = startMailSender({ delivery, mailer, logger, pollMs: 20 });
    await until(() => mailer.delivered.length === 10);
    const stopping = Date.now();
    await sender.stop(5_000);
    expect(Date.now() - stopping).toBeLessThan(1_000);
    expect(new Set(mailer.delivered.map((mail) => mail.id)).size).toBe(10);
  });

  it('claims nothing while the server is unreachable, and delivers once a check passes', async () => {
    const { queue, mailer, service, delivery, logger, lines } = setUp();
    mailer.failing = 'unreachable';
    const { id } = await service.sendTest('ann@example.com');
    const sender = startMailSender({ delivery, mailer, logger, pollMs: 20, probeMaxMs: 50 });
    await until(() => lines.includes('the mail server is unreachable; messages stay queued until it answers'));
    expect(await queue.findById(id)).toMatchObject({ status: 'queued', attempts: 0 });
    mailer.failing = null;
    await until(() => mailer.delivered.length === 1);
    expect(lines).toContain('the mail server answers again');
    await sender.stop(5_000);
  });
});
