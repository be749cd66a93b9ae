import { isDeepStrictEqual } from 'node:util';
import { expect } from 'vitest';
import { bearer, jsonInit, loginDocument, usersDocument } from '@uas/adapters-http/testing';
import type { SessionDocument, SessionListDocument, UserDocument } from '@uas/client';

/** One way to send a request: the application in-process, or one server process among several. */
type Send = (path: string, init?: RequestInit) => Promise<Response>;

/**
 * Where the two racing requests of a round go (the same instance, or one each), and the admin
 * token both use. `setup` makes the user of each round and reads the outcome.
 */
export interface RaceTargets {
  setup: Send;
  first: Send;
  second: Send;
  adminToken: string;
}

/** Rounds of each race, as the issue that introduced these tests measured them. */
const ROUNDS = 50;
/** Rounds in flight at once: enough to keep both databases busy, few enough for two shared cores. */
const ROUNDS_AT_ONCE = 10;
const PASSWORD = 'race-password-1';

interface RaceUser {
  id: string;
  email: string;
  accessToken: string;
  refreshToken: string;
}

interface Outcome {
  /** What went wrong in this round, or null when nothing was lost. */
  loss: string | null;
}

export interface RaceResult {
  rounds: number;
  /** One line per round that lost a change, resurrected an account or ended a session it should not have. */
  losses: string[];
}

/**
 * Runs `round` ROUNDS times, ROUNDS_AT_ONCE rounds concurrently, each on its own fresh user, and
 * counts the rounds that lost something. Each round fires its two requests together.
 */
async function runRounds(
  targets: RaceTargets,
  round: (user: RaceUser, index: number) => Promise<Outcome>,
): Promise<RaceResult> {
  const losses: string[] = [];
  for (let start = 0; start < ROUNDS; start += ROUNDS_AT_ONCE) {
    const batch = Array.from({ length: Math.min(ROUNDS_AT_ONCE, ROUNDS - start) }, (_, i) => start + i);
    await Promise.all(
      batch.map(async (index) => {
        const { loss } = await round(await signedInUser(targets, index), index);
        if (loss) losses.push(`round ${index + 1}: ${loss}`);
      }),
    );
  }
  return { rounds: ROUNDS, losses };
}

/** The body of a response that must have succeeded, read as the document the API describes for it. */
async function json<Document>(response: Response): Promise<Document> {
  expect(response.status, await response.clone().text()).toBeLessThan(300);
  return response.json();
}

const userOf = (response: Response) => json<UserDocument>(response);
const sessionOf = (response: Response) => json<SessionDocument>(response);

async function signedInUser({ setup, adminToken }: RaceTargets, index: number): Promise<RaceUser> {
  const email = `race-${index}-${crypto.randomUUID()}@example.com`;
  const created = await setup(
    '/v1/admin/users',
    jsonInit(
      'POST',
      usersDocument({ email, password: PASSWORD, name: 'Before', metadata: { v: 0 } }),
      bearer(adminToken),
    ),
  );
  const { data } = await userOf(created);
  const session = await sessionOf(await setup('/v1/login', jsonInit('POST', loginDocument(email, PASSWORD))));
  return {
    id: data.id,
    email,
    accessToken: session.data.attributes.access_token,
    refreshToken: session.data.attributes.refresh_token,
  };
}

const adminPatch = (send: Send, token: string, id: string, attributes: Record<string, unknown>) =>
  send(`/v1/admin/users/${id}`, jsonInit('PATCH', usersDocument(attributes, { id }), bearer(token)));

async function stored(targets: RaceTargets, id: string): Promise<Response> {
  return targets.setup(`/v1/admin/users/${id}`, { headers: bearer(targets.adminToken) });
}

const refresh = (send: Send, refreshToken: string) => send('/v1/refresh', jsonInit('POST', { refreshToken }));

/**
 * A rename (sent by `rename`) and an admin's change of metadata, at once: both must land.
 * `whose` names the renamer in the loss.
 */
function renameAndMetadataRace(
  targets: RaceTargets,
  rename: (user: RaceUser, name: string) => Promise<Response>,
  whose: string,
): Promise<RaceResult> {
  return runRounds(targets, async (user, index) => {
    const name = `Renamed ${index}`;
    const statuses = await Promise.all([
      rename(user, name).then((r) => r.status),
      adminPatch(targets.second, targets.adminToken, user.id, { metadata: { v: index + 1 } }).then((r) => r.status),
    ]);
    const { attributes } = (await userOf(await stored(targets, user.id))).data;
    if (statuses.some((status) => status !== 200)) return { loss: `statuses ${statuses.join(', ')}` };
    if (attributes.name !== name) return { loss: `${whose} name was lost` };
    if (attributes.metadata.v !== index + 1) return { loss: "the admin's metadata was lost" };
    return { loss: null };
  });
}

/** Two admins PATCH different attributes of one user at once: both changes must land. */
const differentAttributesRace = (targets: RaceTargets) =>
  renameAndMetadataRace(
    targets,
    (user, name) => adminPatch(targets.first, targets.adminToken, user.id, { name }),
    "an admin's",
  );

/** The user changes their name while an admin changes their metadata: both land. */
const selfServiceRace = (targets: RaceTargets) =>
  renameAndMetadataRace(
    targets,
    (user, name) => targets.first('/v1/users/me', jsonInit('PATCH', usersDocument({ name }), bearer(user.accessToken))),
    "the user's own",
  );

/**
 * Two admins PATCH the same attributes at once: one PATCH wins whole, name and metadata both
 * from the same request, never a mix.
 */
function sameAttributesRace(targets: RaceTargets): Promise<RaceResult> {
  return runRounds(targets, async (user, index) => {
    const change = (who: string) => ({ name: `${who} ${index}`, metadata: { who, [who]: index } });
    const statuses = await Promise.all([
      adminPatch(targets.first, targets.adminToken, user.id, change('a')).then((r) => r.status),
      adminPatch(targets.second, targets.adminToken, user.id, change('b')).then((r) => r.status),
    ]);
    const { attributes } = (await userOf(await stored(targets, user.id))).data;
    if (statuses.some((status) => status !== 200)) return { loss: `statuses ${statuses.join(', ')}` };
    const winner = change(String(attributes.metadata.who));
    if (attributes.name !== winner.name || !isDeepStrictEqual(attributes.metadata, winner.metadata)) {
      return { loss: `a mix: ${attributes.name} with ${JSON.stringify(attributes.metadata)}` };
    }
    return { loss: null };
  });
}

/**
 * A deactivation races a rename: the user must end inactive and renamed, its session dead (no
 * access, no refresh) and no login possible.
 */
function deactivationRace(targets: RaceTargets): Promise<RaceResult> {
  return runRounds(targets, async (user, index) => {
    await Promise.all([
      adminPatch(targets.first, targets.adminToken, user.id, { active: 0 }),
      adminPatch(targets.second, targets.adminToken, user.id, { name: `Renamed ${index}` }),
    ]);
    const { attributes } = (await userOf(await stored(targets, user.id))).data;
    if (attributes.active !== 0) return { loss: 'the account is active again' };
    if (attributes.name !== `Renamed ${index}`) return { loss: 'the name was lost' };
    if ((await refresh(targets.first, user.refreshToken)).status !== 401)
      return { loss: 'its refresh token still works' };
    if ((await targets.second('/v1/users/me', { headers: bearer(user.accessToken) })).status !== 401) {
      return { loss: 'its access token still works' };
    }
    const login = await targets.first('/v1/login', jsonInit('POST', loginDocument(user.email, PASSWORD)));
    if (login.status !== 403) return { loss: `login answered ${login.status}` };
    return { loss: null };
  });
}

/**
 * A login races the deactivation of its account: whatever the login answered, once the
 * deactivation has answered no session of the account works, old or new.
 */
function loginDeactivationRace(targets: RaceTargets): Promise<RaceResult> {
  return runRounds(targets, async (user) => {
    const [login] = await Promise.all([
      targets.first('/v1/login', jsonInit('POST', loginDocument(user.email, PASSWORD))),
      adminPatch(targets.second, targets.adminToken, user.id, { active: 0 }),
    ]);
    if (![200, 403].includes(login.status)) return { loss: `login answered ${login.status}` };
    const sessions = [
      user,
      ...(login.status === 200
        ? [await sessionOf(login)].map(({ data }) => ({
            accessToken: data.attributes.access_token,
            refreshToken: data.attributes.refresh_token,
          }))
        : []),
    ];
    for (const session of sessions) {
      if ((await targets.second('/v1/users/me', { headers: bearer(session.accessToken) })).status !== 401) {
        return { loss: 'an access token of the deactivated account still works' };
      }
      if ((await refresh(targets.first, session.refreshToken)).status !== 401) {
        return { loss: 'a refresh token of the deactivated account still works' };
      }
    }
    return { loss: null };
  });
}

/**
 * A login with the account's password races an admin's change that ends every session (a new
 * password, a new email): whatever the login answered, once the change has answered no session
 * opened with the old credentials works.
 */
function loginCredentialChangeRace(change: (index: number) => Record<string, unknown>) {
  return (targets: RaceTargets): Promise<RaceResult> =>
    runRounds(targets, async (user, index) => {
      const [login, changed] = await Promise.all([
        targets.first('/v1/login', jsonInit('POST', loginDocument(user.email, PASSWORD))),
        adminPatch(targets.second, targets.adminToken, user.id, change(index)),
      ]);
      if (changed.status !== 200 || ![200, 401].includes(login.status))
        return { loss: `statuses ${login.status}, ${changed.status}` };
      if (login.status !== 200) return { loss: null };
      const { data } = await sessionOf(login);
      if ((await targets.second('/v1/users/me', { headers: bearer(data.attributes.access_token) })).status !== 401) {
        return { loss: 'a session opened with the old credentials still works' };
      }
      if ((await refresh(targets.first, data.attributes.refresh_token)).status !== 401) {
        return { loss: 'a refresh token issued for the old credentials still works' };
      }
      return { loss: null };
    });
}

const loginPasswordResetRace = loginCredentialChangeRace((index) => ({ password: `admin-reset-${index}` }));
const loginEmailChangeRace = loginCredentialChangeRace((index) => ({
  email: `moved-${index}-${crypto.randomUUID()}@example.com`,
}));

/** A PATCH races a DELETE: 204 for the delete, 200 or 404 for the PATCH, and nothing left behind. */
function patchDeleteRace(targets: RaceTargets): Promise<RaceResult> {
  return runRounds(targets, async (user, index) => {
    const [patched, deleted] = await Promise.all([
      adminPatch(targets.first, targets.adminToken, user.id, { name: `Renamed ${index}`, active: 1 }),
      targets.second(`/v1/admin/users/${user.id}`, { method: 'DELETE', headers: bearer(targets.adminToken) }),
    ]);
    if (deleted.status !== 204 || ![200, 404].includes(patched.status)) {
      return { loss: `DELETE answered ${deleted.status}, PATCH ${patched.status}` };
    }
    if ((await stored(targets, user.id)).status !== 404) return { loss: 'the deleted user is back' };
    if ((await refresh(targets.second, user.refreshToken)).status !== 401)
      return { loss: 'its refresh token still works' };
    if ((await targets.first('/v1/users/me', { headers: bearer(user.accessToken) })).status !== 401) {
      return { loss: 'its access token still works' };
    }
    return { loss: null };
  });
}

/**
 * The user changes their password (proving the current one) while an admin resets it: the reset
 * is never undone. If the admin's reset lands first, the user's session has ended (401) or their
 * proof no longer holds (422); the admin's password is the one that works either way.
 */
function passwordResetRace(targets: RaceTargets): Promise<RaceResult> {
  return runRounds(targets, async (user, index) => {
    const own = `user-password-${index}`;
    const reset = `admin-reset-${index}`;
    const [mine, admins] = await Promise.all([
      targets.first(
        '/v1/users/me',
        jsonInit('PATCH', usersDocument({ password: own, current_password: PASSWORD }), bearer(user.accessToken)),
      ),
      adminPatch(targets.second, targets.adminToken, user.id, { password: reset }),
    ]);
    if (admins.status !== 200 || ![200, 401, 422].includes(mine.status))
      return { loss: `statuses ${mine.status}, ${admins.status}` };
    const login = (password: string) =>
      targets.setup('/v1/login', jsonInit('POST', loginDocument(user.email, password)));
    if ((await login(own)).status === 200) return { loss: "the admin's reset was undone by the user's change" };
    if ((await login(reset)).status !== 200) return { loss: "the admin's password does not work" };
    return { loss: null };
  });
}

/**
 * Two tabs refresh one refresh token at once: both must get a session that works, and the
 * session must survive (its next refresh succeeds).
 */
function twoTabsRefreshRace(targets: RaceTargets): Promise<RaceResult> {
  return runRounds(targets, async (user) => {
    const responses = await Promise.all([
      refresh(targets.first, user.refreshToken),
      refresh(targets.second, user.refreshToken),
    ]);
    const statuses = responses.map((response) => response.status);
    if (statuses.some((status) => status !== 200)) return { loss: `refreshes answered ${statuses.join(', ')}` };
    const sessions = await Promise.all(responses.map(sessionOf));
    for (const { data } of sessions) {
      const me = await targets.setup('/v1/users/me', { headers: bearer(data.attributes.access_token) });
      if (me.status !== 200) return { loss: `a tab's new access token answered ${me.status}` };
    }
    const next = await refresh(targets.first, String(sessions[0]?.data.attributes.refresh_token));
    if (next.status !== 200) return { loss: `the session ended: the next refresh answered ${next.status}` };
    return { loss: null };
  });
}

/** The id of the session a user's access token belongs to, as the user's own listing shows it. */
async function sessionIdOf(targets: RaceTargets, user: RaceUser): Promise<string> {
  const { data } = await json<SessionListDocument>(
    await targets.setup('/v1/users/me/sessions', { headers: bearer(user.accessToken) }),
  );
  if (data.length !== 1) throw new Error(`expected one session, found ${data.length}`);
  return data[0]!.id;
}

/**
 * A refresh races the end of its session (`end` sends the ending request): whatever the refresh
 * answered, once the end has answered no token of the session works, old or newly issued.
 */
function refreshEndRace(end: (targets: RaceTargets, user: RaceUser, sessionId: string) => Promise<Response>) {
  return (targets: RaceTargets): Promise<RaceResult> =>
    runRounds(targets, async (user) => {
      const sessionId = await sessionIdOf(targets, user);
      const [refreshed, ended] = await Promise.all([
        refresh(targets.first, user.refreshToken),
        end(targets, user, sessionId),
      ]);
      if (ended.status !== 204 || ![200, 401].includes(refreshed.status))
        return { loss: `the end answered ${ended.status}, the refresh ${refreshed.status}` };
      const tokens = [user];
      if (refreshed.status === 200) {
        const { data } = await sessionOf(refreshed);
        tokens.push({
          ...user,
          accessToken: data.attributes.access_token,
          refreshToken: data.attributes.refresh_token,
        });
      }
      for (const token of tokens) {
        if ((await targets.second('/v1/users/me', { headers: bearer(token.accessToken) })).status !== 401)
          return { loss: 'an access token of the ended session still works' };
        if ((await refresh(targets.first, token.refreshToken)).status !== 401)
          return { loss: 'a refresh token of the ended session still works' };
      }
      return { loss: null };
    });
}

const adminEndsSession = refreshEndRace(({ second, adminToken }, user, sessionId) =>
  second(`/v1/admin/users/${user.id}/sessions/${sessionId}`, { method: 'DELETE', headers: bearer(adminToken) }),
);
const adminEndsAllSessions = refreshEndRace(({ second, adminToken }, user) =>
  second(`/v1/admin/users/${user.id}/sessions`, { method: 'DELETE', headers: bearer(adminToken) }),
);
const userEndsOwnSession = refreshEndRace(({ second }, user, sessionId) =>
  second(`/v1/users/me/sessions/${sessionId}`, { method: 'DELETE', headers: bearer(user.accessToken) }),
);

/** Every race, named for what must hold in each round. */
export const RACES: [string, (targets: RaceTargets) => Promise<RaceResult>][] = [
  ['two PATCHes of different attributes both land', differentAttributesRace],
  ['of two PATCHes of the same attributes one wins whole', sameAttributesRace],
  ['a deactivation racing a rename is never undone, and ends the session', deactivationRace],
  ['a login racing a deactivation leaves no working session', loginDeactivationRace],
  ["a login racing an admin's password reset leaves no working session", loginPasswordResetRace],
  ["a login racing an admin's email change leaves no working session", loginEmailChangeRace],
  ['a PATCH racing a DELETE leaves nothing behind', patchDeleteRace],
  ["a user's own PATCH and an admin's PATCH both land", selfServiceRace],
  ["a user's password change never undoes an admin's password reset", passwordResetRace],
  ['two tabs refreshing one token at once both stay signed in', twoTabsRefreshRace],
  ["an admin ending a session racing its refresh leaves none of the session's tokens working", adminEndsSession],
  ["an admin ending all sessions racing a refresh leaves none of the session's tokens working", adminEndsAllSessions],
  ['a user ending their own session racing its refresh leaves none of its tokens working', userEndsOwnSession],
];
