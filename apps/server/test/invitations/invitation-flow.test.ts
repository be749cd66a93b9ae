import { describe, expect, it } from 'vitest';
import { BACKENDS } from '../support/test-application';
import { scenarioApplication } from '../support/scenario';
import { accept, Inviter, userLogin, type Send } from './invitation-support';

const PASSWORD = 'invited-password-1';

/** The whole flow through the real application, as an admin and an invitee would use it. */
describe.each(BACKENDS)('an invitation on %s', (backend) => {
  const s = scenarioApplication(backend, { fresh: 'each' });
  const send: Send = (path, init) => Promise.resolve(s.t.app.request(path, init));
  const inviter = async () => new Inviter(send, await s.client.adminToken());

  it('closes the account until the invitee sets a password; the token shows nowhere but the outbox', async () => {
    const admin = await inviter();
    const created = await admin.invite('Ann@Example.com', 'Ann');
    expect(created.status).toBe(201);
    const { data } = await created.json();
    const token = await admin.tokenMailedTo('ann@example.com');
    expect(JSON.stringify(data)).not.toContain(token);

    // Invited, not accepted: refused exactly as a wrong password, whatever is tried.
    const invited = await userLogin(send, 'ann@example.com', PASSWORD);
    const unknown = await userLogin(send, 'nobody@example.com', PASSWORD);
    expect([invited.status, unknown.status]).toEqual([401, 401]);
    expect((await invited.json()).errors.map((e: { code: string }) => e.code)).toEqual(
      (await unknown.json()).errors.map((e: { code: string }) => e.code),
    );

    const accepted = await accept(send, token, PASSWORD);
    expect(accepted.status).toBe(204);
    const login = await userLogin(send, 'ann@example.com', PASSWORD);
    expect(login.status).toBe(200);
    const user = await admin.user(data.attributes.user_id);
    expect((await user.json()).data.attributes.email_verified).not.toBeNull();
    expect((await accept(send, token, PASSWORD)).status).toBe(400);

    const audit = await s.client.get('/v1/admin/audit-events?page[size]=100', await s.client.adminToken());
    const events = await audit.text();
    for (const action of ['invitation.created', 'invitation.accepted']) expect(events).toContain(action);
    expect(events).not.toContain(token);
    expect(events).not.toContain(PASSWORD);
    const logged = s.t.logs.join('\n');
    expect(logged).not.toContain(token);
    expect(logged).not.toContain(PASSWORD);
  });

  it('revoke and resend: the old links stop working, the new one works, each step audited', async () => {
    const admin = await inviter();
    const revoked = await admin.invited('revoked@example.com');
    expect((await admin.revoke(revoked.id)).status).toBe(204);
    expect((await admin.user(revoked.userId)).status).toBe(404);
    expect((await accept(send, revoked.token, PASSWORD)).status).toBe(400);

    const resent = await admin.invited('resent@example.com');
    // The outbox lists newest first by time: the resent message is a second younger.
    s.t.clock.advance(1);
    expect((await admin.resend(resent.id)).status).toBe(200);
    const fresh = await admin.tokenMailedTo('resent@example.com');
    expect(fresh).not.toBe(resent.token);
    const stale = await accept(send, resent.token, PASSWORD);
    expect(stale.status).toBe(400);
    expect((await stale.json()).errors[0].code).toBe('invalid_token');
    expect((await accept(send, fresh, PASSWORD)).status).toBe(204);

    const audit = await (
      await s.client.get('/v1/admin/audit-events?page[size]=100', await s.client.adminToken())
    ).text();
    for (const action of ['invitation.revoked', 'invitation.resent']) expect(audit).toContain(action);
    for (const token of [revoked.token, resent.token, fresh]) {
      expect(audit).not.toContain(token);
      expect(s.t.logs.join('\n')).not.toContain(token);
    }
  });
});
