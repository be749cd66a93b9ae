import { randomBytes, randomUUID } from 'node:crypto';
import { openDatabase, type DatabaseLocation, type DatabaseOptions } from '@uas/adapters-persistence';
import { challengeDigest, NO_BAN, SECOND_FACTOR_RULES, type User } from '@uas/domain';
import { generateSync } from 'otplib';
import { OtplibCodes } from '../apps/server/src/adapters/otp-codes';
import { RandomIdGenerator } from '../apps/server/src/adapters/random-id-generator';
import { SecretKeyRing } from '../apps/server/src/adapters/secret-key-ring';
import { mfaKeysFrom } from '../apps/server/src/mfa-key-file';

/** Where the measured server keeps its data: the database, and its admin key file (the MFA key lies beside it). */
export interface ServerData {
  location: DatabaseLocation;
  options: DatabaseOptions;
  adminKeyPath: string;
}

/** One answer ready to send to `POST /v1/login/mfa`: a challenge's handle and its account's codes by time step. */
export interface TotpAnswer {
  challenge: string;
  /** The factor's code for the current time step and the next, in case the step turns during the run. */
  codes: ReadonlyMap<number, string>;
}

const PERIOD_MS = SECOND_FACTOR_RULES.totp.periodSeconds * 1000;
export const totpStepNow = () => Math.floor(Date.now() / PERIOD_MS);
/**
 * Written ahead of the load, which may run several minutes after when every scenario runs: the
 * challenges live longer than the 5 minutes the server gives them. Their expiry is only compared.
 */
const CHALLENGE_LIFETIME_MS = 3_600_000;

/**
 * `count` users, each with one active TOTP factor (its secret sealed as the server seals it: the
 * server's own key ring, over the same database and MFA key file) and one open sign-in challenge
 * whose password step passed. A TOTP step is accepted once per factor, so every answer of the load
 * needs a factor of its own; and every answer completes its challenge. Written through the
 * repositories, unmeasured, as a password step would have written them (bcrypt is not in the
 * measured step). The users' password hash is never checked.
 */
export async function seedTotpAnswers(server: ServerData, count: number, tag: string): Promise<TotpAnswer[]> {
  const database = await openDatabase(server.location, server.options);
  try {
    const { users, factors, signInChallenges, secrets } = database.repositories;
    const ring = new SecretKeyRing({
      secrets,
      clock: { now: () => new Date() },
      ids: new RandomIdGenerator(),
      liveTokensAfterRetiringSeconds: 0,
      wrapKeys: mfaKeysFrom([], server.adminKeyPath),
    });
    const codes = new OtplibCodes();
    const now = new Date();
    const accounts: User[] = Array.from({ length: count }, (_, n) => ({
      id: randomUUID(),
      name: `MFA ${n}`,
      email: `mfa${tag}${String(n).padStart(6, '0')}@bench.example`,
      passwordHash: 'not checked: the password step is not measured',
      metadata: {},
      app: {},
      active: 1,
      created: now,
      updated: now,
      version: 1,
      lastLogin: null,
      emailVerified: now,
      ...NO_BAN,
    }));
    await users.insertMany(accounts);
    const seeded: { challenge: string; secret: string }[] = [];
    for (const account of accounts) {
      const secret = codes.newSecret();
      const id = randomUUID();
      await factors.create({
        id,
        owner: 'user',
        subjectId: account.id,
        kind: 'totp',
        created: now,
        activated: now,
        lastUsed: null,
        totp: { secret: await ring.seal('factor-secret', secret, id), lastStep: null },
        webauthn: null,
      });
      const handle = randomBytes(32).toString('base64url');
      await signInChallenges.create({
        id: challengeDigest(handle),
        owner: 'user',
        subjectId: account.id,
        kinds: ['totp', 'recovery_code'],
        webauthnChallenge: null,
        methods: ['pwd'],
        created: now,
        expires: new Date(now.getTime() + CHALLENGE_LIFETIME_MS),
        failures: 0,
        completed: null,
        clientAddress: null,
        userAgent: null,
      });
      seeded.push({ challenge: handle, secret });
    }
    // The codes of the steps the load runs in, once the (slow) writing is done.
    const step = totpStepNow();
    return seeded.map(({ challenge, secret }) => {
      const codeOf = (at: number) => generateSync({ secret, epoch: (at * PERIOD_MS) / 1000 });
      return { challenge, codes: new Map([step, step + 1].map((at) => [at, codeOf(at)])) };
    });
  } finally {
    await database.close();
  }
}
