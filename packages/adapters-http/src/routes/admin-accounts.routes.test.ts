import { beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, jsonInit, type TestApp } from '../testing';

let t: TestApp;

beforeEach(async () => {
  t = await createTestApp();
});

/** Invites `email` as an owner would: the token of the mailed link. */
async function invitationToken(email: string): Promise<string> {
  await t.deps.adminAccounts.invite({ email, role: 'support' });
  const [message] = (await t.deps.mail.list({ page: 1, size: 1 })).messages;
  const text = (await t.deps.mail.read(message!.id)).content?.text ?? '';
  return new URL(/https?:\/\/\S+/.exec(text)![0]).searchParams.get('token')!;
}

describe('POST /v1/admin/admins/accept', () => {
  it('answers an address an administrator took meanwhile with 409 email_taken pointing at no member', async () => {
    const token = await invitationToken('gil@example.com');
    await t.repositories.admins.insert({ ...t.admin, id: crypto.randomUUID(), email: 'gil@example.com' });
    const response = await t.app.request(
      '/v1/admin/admins/accept',
      jsonInit('POST', { token, password: 'invited-password-1' }),
    );
    expect(response.status).toBe(409);
    const [error] = (await response.json()).errors;
    expect(error).toMatchObject({ code: 'email_taken' });
    expect(error).not.toHaveProperty('source');
  });
});
