import { beforeEach, describe, expect, it } from '../testing/test-api.ts';
import { NO_REQUEST } from '../audit/audit-event.ts';
import { ValidationError } from '../shared/errors.ts';
import { NO_PASSWORD_HASH } from '../users/password-match.ts';
import { buildDomain, issueSources, PUBLIC_URL, type Domain } from '../testing/domain-fixture.ts';
import { MAIL_REQUEST_LEASE_SECONDS, MAIL_REQUEST_MAX_ATTEMPTS } from './mail-request.ts';

const CONTEXT = { requestId: 'req-1', clientAddress: '203.0.113.7', userAgent: 'curl/8' };

describe('MailRequestService', () => {
  let domain: Domain;
  beforeEach(() => {
    domain = buildDomain();
  });

  const outbox = async () => (await domain.mail.list({ page: 1, size: 100 })).messages;
  const events = async () => (await domain.repositories.audit.list({ page: 1, size: 100 })).events;
  const linkIn = async (id: string) => (await domain.mail.read(id)).content?.text.match(/https:\S+token=[\w-]+/)?.[0];

  it('request() records the request the same way for a known and an unknown address, and nothing else', async () => {
    const user = await domain.createUser();
    await domain.mailRequests.request('recovery', user.email, CONTEXT);
    await domain.mailRequests.request('recovery', 'nobody@example.com', CONTEXT);
    expect(await outbox()).toEqual([]);
    expect(await events()).toHaveLength(1); // the user's creation only
  });

  it('request() refuses what is not an address, pointing at it', async () => {
    expect(await issueSources(domain.mailRequests.request('recovery', 'not an address', NO_REQUEST))).toEqual([
      { pointer: '/email' },
    ]);
  });

  it('tells its listeners of each recorded request, so the worker starts at once', async () => {
    let told = 0;
    const stop = domain.mailRequests.onRecorded(() => (told += 1));
    await domain.mailRequests.request('verification', 'a@example.com', NO_REQUEST);
    stop();
    await domain.mailRequests.request('verification', 'b@example.com', NO_REQUEST);
    expect(told).toBe(1);
  });

  it('resolves a recovery request of an active user: a recovery link to its address, audited with the request', async () => {
    const user = await domain.createUser();
    await domain.mailRequests.request('recovery', ` ${user.email.toUpperCase()} `, CONTEXT);
    expect(await domain.mailRequests.resolveDue(10)).toBe(1);
    const [message] = await outbox();
    expect(message).toMatchObject({ kind: 'recovery', recipient: user.email });
    expect(await linkIn(message!.id)).toMatch(new RegExp(`^${PUBLIC_URL}account/reset-password\\?token=`));
    const [requested] = (await events()).filter((event) => event.action === 'user.recovery_requested');
    expect(requested).toMatchObject({ target: { type: 'users', id: user.id }, request: CONTEXT });
    expect(await domain.mailRequests.resolveDue(10)).toBe(0);
  });

  it('resolves to nothing for an unknown address, an inactive user, or a verified one asking for verification', async () => {
    const inactive = await domain.createUser({ active: 0 });
    const verified = await domain.createUser();
    await domain.mailRequests.request('recovery', 'nobody@example.com', CONTEXT);
    await domain.mailRequests.request('recovery', inactive.email, CONTEXT);
    await domain.mailRequests.request('verification', verified.email, CONTEXT);
    await domain.mailRequests.request('verification', 'nobody@example.com', CONTEXT);
    expect(await domain.mailRequests.resolveDue(10)).toBe(4);
    expect(await outbox()).toEqual([]);
    expect((await events()).map((event) => event.action)).toEqual(['user.created', 'user.created']);
  });

  it('mails a banned user no recovery link while the ban lasts, and one once it has ended', async () => {
    const banned = await domain.createUser();
    await domain.users.ban(banned.id, {
      reason: 'spam',
      until: new Date(domain.clock.now().getTime() + 60_000).toISOString(),
    });
    await domain.mailRequests.request('recovery', banned.email, CONTEXT);
    expect(await domain.mailRequests.resolveDue(10)).toBe(1);
    expect(await outbox()).toEqual([]);
    domain.clock.advance(60);
    await domain.mailRequests.request('recovery', banned.email, CONTEXT);
    expect(await domain.mailRequests.resolveDue(10)).toBe(1);
    expect(await outbox()).toHaveLength(1);
  });

  it('mails a pending invitee neither a recovery nor a verification link: only the invitation lets them in', async () => {
    await domain.invitations.invite({ email: 'invitee@example.com' });
    const [invitation] = await outbox();
    await domain.mailRequests.request('recovery', 'invitee@example.com', CONTEXT);
    await domain.mailRequests.request('verification', 'invitee@example.com', CONTEXT);
    expect(await domain.mailRequests.resolveDue(10)).toBe(2);
    expect(await outbox()).toEqual([invitation]);
  });

  it('mails a recovery link to a password-less user who signed in once (a provider user whose provider went)', async () => {
    const user = await domain.createUser();
    await domain.repositories.users.update(user.id, (current) => ({
      user: { ...current, passwordHash: NO_PASSWORD_HASH, lastLogin: domain.clock.now() },
    }));
    await domain.mailRequests.request('recovery', user.email, CONTEXT);
    await domain.mailRequests.resolveDue(10);
    expect((await outbox()).map((message) => [message.kind, message.recipient])).toEqual([['recovery', user.email]]);
  });

  it('resolves a verification request of an unverified user: a verification link', async () => {
    const user = await domain.createUser({ emailVerified: false });
    await domain.mailRequests.request('verification', user.email, CONTEXT);
    await domain.mailRequests.resolveDue(10);
    const [message] = await outbox();
    expect(message).toMatchObject({ kind: 'verification', recipient: user.email });
    expect(await linkIn(message!.id)).toContain('/account/verify?token=');
    expect((await events()).map((event) => event.action)).toContain('user.verification_resent');
  });

  it('sends one message for many requests about one address within a minute', async () => {
    const user = await domain.createUser();
    for (let n = 0; n < 4; n += 1) await domain.mailRequests.request('recovery', user.email, CONTEXT);
    await domain.mailRequests.resolveDue(10);
    expect(await outbox()).toHaveLength(1);
  });

  it('a request taken over after its lease still sends its message, though the dead attempt counted it', async () => {
    const user = await domain.createUser();
    await domain.mailRequests.request('recovery', user.email, CONTEXT);
    // The first attempt counts the message, then dies before writing it: its claim is left to lapse.
    const [claim] = await domain.repositories.mailRequests.claim(domain.clock.now(), domain.clock.now(), 1);
    expect(await domain.accountMail.admit('recovery', user.email)).not.toBeNull();
    expect(claim!.attempt).toBe(1);
    expect(await domain.mailRequests.resolveDue(10)).toBe(1);
    expect(await outbox()).toMatchObject([{ kind: 'recovery', recipient: user.email }]);
  });

  it('leaves a request whose resolution fails to a later claim, and drops it after the last attempt', async () => {
    const user = await domain.createUser();
    await domain.mailRequests.request('recovery', user.email, CONTEXT);
    const findByEmail = domain.repositories.users.findByEmail.bind(domain.repositories.users);
    domain.repositories.users.findByEmail = async () => {
      throw new ValidationError([]);
    };
    for (let attempt = 1; attempt <= MAIL_REQUEST_MAX_ATTEMPTS; attempt += 1) {
      expect(await domain.mailRequests.resolveDue(10)).toBe(1);
      expect(await domain.mailRequests.resolveDue(10)).toBe(0);
      domain.clock.advance(MAIL_REQUEST_LEASE_SECONDS);
    }
    domain.repositories.users.findByEmail = findByEmail;
    expect(await domain.mailRequests.resolveDue(10)).toBe(1);
    expect(await outbox()).toEqual([]);
    expect(domain.logger.text()).not.toContain(user.email);
  });
});
