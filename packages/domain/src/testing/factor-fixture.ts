import type { Factor, PasskeyCredential } from '../factors/factor.ts';
import type { FactorRepository } from '../factors/factor.repository.ts';
import { recoveryCodeDigest } from '../factors/recovery-codes.ts';
import type { SecretBox } from '../secrets/secret-box.ts';
import type { IdGenerator } from '../shared/id-generator.ts';
import type { SubjectKind } from '../shared/identity.ts';
import { SecondFactorProofs } from '../factors/second-factor-proofs.ts';
import { FakeOneTimeCodes, FakePasskeyCeremonies } from './fake-factor-ports.ts';
import { FakeSecretBox } from './fake-mail-ports.ts';
import { ManualClock, SequentialIds } from './fake-ports.ts';
import { inMemoryRepositories } from './in-memory-repositories.ts';
import { RecordingLogger } from './recording-logger.ts';

interface Enrolment {
  factors: FactorRepository;
  codes: FakeOneTimeCodes;
  box: SecretBox;
  ids: IdGenerator;
}

/**
 * Active factors written straight into the store, as the enrolment (FactorService) leaves them:
 * what the sign-in's unit tests start from.
 */
export function factorEnrolment({ factors, codes, box, ids }: Enrolment) {
  return {
    /** An active TOTP factor; answers its id and plaintext secret. */
    async totp(owner: SubjectKind, subjectId: string, at: Date): Promise<{ id: string; secret: string }> {
      const id = ids.next();
      const secret = codes.newSecret();
      const sealed = await box.seal('factor-secret', secret, id);
      await factors.create(factor(id, owner, subjectId, at, { totp: { secret: sealed, lastStep: null } }));
      await factors.activate(id, at, {});
      return { id, secret };
    },

    /** An active passkey (synced when `backedUp`); answers its id and credential. */
    async passkey(
      owner: SubjectKind,
      subjectId: string,
      at: Date,
      { backedUp = false, counter = 0 } = {},
    ): Promise<{ id: string; credential: PasskeyCredential }> {
      const id = ids.next();
      const credential: PasskeyCredential = {
        id: `credential-${id}`,
        publicKey: `public-key-of-${id}`,
        counter,
        transports: ['internal'],
        backedUp,
      };
      await factors.create(
        factor(id, owner, subjectId, at, { webauthn: { challenge: 'registration', credential: null } }),
      );
      await factors.activate(id, at, { credential });
      return { id, credential };
    },

    /** Replaces the account's recovery codes with `plain`, stored as their digests. */
    async recoveryCodes(owner: SubjectKind, subjectId: string, plain: readonly string[]): Promise<void> {
      await factors.replaceRecoveryCodes(
        owner,
        subjectId,
        await Promise.all(plain.map((code) => recoveryCodeDigest(box, code))),
      );
    },
  };
}

function factor(
  id: string,
  owner: SubjectKind,
  subjectId: string,
  at: Date,
  kind: Pick<Factor, 'totp'> | Pick<Factor, 'webauthn'>,
): Factor {
  return {
    id,
    owner,
    subjectId,
    kind: 'totp' in kind ? 'totp' : 'webauthn',
    created: at,
    activated: null,
    lastUsed: null,
    totp: null,
    webauthn: null,
    ...kind,
  };
}

/** The in-memory stores and fake ports the factor tests share, with the proofs built over them. */
export function proofsFixture() {
  const repositories = inMemoryRepositories();
  const clock = new ManualClock();
  const ids = new SequentialIds();
  const codes = new FakeOneTimeCodes();
  const ceremonies = new FakePasskeyCeremonies();
  const box = new FakeSecretBox();
  const logger = new RecordingLogger();
  const proofs = new SecondFactorProofs({
    factors: repositories.factors,
    codes,
    ceremonies,
    box,
    signInChallenges: repositories.signInChallenges,
    ids,
    logger,
  });
  return { repositories, clock, ids, codes, ceremonies, box, logger, proofs };
}
