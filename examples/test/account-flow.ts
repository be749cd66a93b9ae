import { expect } from 'vitest';

const post = (url: string, body: object) =>
  fetch(url, { method: 'POST', body: JSON.stringify(body), headers: { 'Content-Type': 'application/json' } });

/** What a user of either example does: sign up, log in, read /me; and what must be refused. */
export async function signUpLogInReadMe(baseUrl: string): Promise<void> {
  const account = { name: 'Ada', email: 'Ada@Example.com', password: 'correct horse battery staple' };
  const signedUp = await post(`${baseUrl}/signup`, account);
  expect(signedUp.status).toBe(201);
  const user = await signedUp.json();
  expect(user).toMatchObject({ name: 'Ada', email: 'ada@example.com' });
  expect(JSON.stringify(user)).not.toContain(account.password);
  expect((await post(`${baseUrl}/signup`, account)).status).toBe(409);
  expect(await (await post(`${baseUrl}/signup`, { email: 'not an email', password: 'x' })).json()).toMatchObject({
    error: 'invalid_attribute',
  });

  const refused = await post(`${baseUrl}/login`, { email: account.email, password: 'not the password' });
  expect([refused.status, (await refused.json()).error]).toEqual([401, 'invalid_credentials']);
  const loggedIn = await post(`${baseUrl}/login`, { email: account.email, password: account.password });
  expect(loggedIn.status).toBe(200);
  const { access_token: accessToken } = await loggedIn.json();
  expect(accessToken).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);

  const me = await fetch(`${baseUrl}/me`, { headers: { Authorization: `Bearer ${accessToken}` } });
  expect([me.status, await me.json()]).toEqual([200, user]);
  const forged = `${accessToken.slice(0, -4)}AAAA`;
  for (const authorization of [undefined, `Bearer ${forged}`]) {
    const anonymous = await fetch(`${baseUrl}/me`, { headers: authorization ? { Authorization: authorization } : {} });
    expect([anonymous.status, (await anonymous.json()).error]).toEqual([401, 'invalid_token']);
  }
}
