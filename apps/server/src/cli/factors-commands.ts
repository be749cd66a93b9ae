import { Command } from 'commander';
import { withOperator } from './operator';
import { createProgress } from './progress';

/**
 * `factors rotate-key`: a new factor-secret key seals from now on, and every TOTP secret is sealed
 * again under it, so the older keys seal nothing any more. The rotation is audited (`secret.rotated`).
 */
export function factorsCommand(): Command {
  const factors = new Command('factors').description('the second factors (TOTP, passkeys, recovery codes)');
  factors
    .command('rotate-key')
    .description('seal every TOTP secret again under a new factor-secret key (audited as secret.rotated)')
    .action(async () => {
      await withOperator(async ({ database, secretKeyRing, useCases }) => {
        // The key ring may be new on this database, and wraps its keys under the MFA key at start.
        await database.withStartupLock(() => secretKeyRing.ensureSecrets());
        const secret = await secretKeyRing.rotate('factor-secret');
        const progress = createProgress('TOTP secrets sealed again');
        const resealed = await useCases.factors.resealSecrets((done) => progress.update(done));
        progress.done(resealed);
        process.stdout.write(
          `New factor-secret key ${secret.id} in use; ${resealed} TOTP secrets sealed again under it.\n`,
        );
      });
    });
  return factors;
}
