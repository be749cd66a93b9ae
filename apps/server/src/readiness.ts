import type { Logger } from '@uas/domain';
import type { Database } from '@uas/adapters-persistence';
import type { KeyRing } from './adapters/key-ring';

/**
 * Whether this instance should get traffic. It opens its port only once the database is migrated
 * and a signing key exists; after that it is ready while the database answers and a signing key
 * loads, and never again once it has begun to stop.
 */
export class Readiness {
  private stopping = false;

  constructor(
    private readonly deps: { database: Pick<Database, 'ping'>; keyRing: Pick<KeyRing, 'signingKey'>; logger: Logger },
  ) {}

  /** From now on the instance reports itself not ready, so balancers send its traffic elsewhere. */
  markStopping(): void {
    this.stopping = true;
  }

  /** Null when ready; otherwise why not, in words fit for any client (causes go to the log only). */
  async check(): Promise<string | null> {
    if (this.stopping) return 'This instance is stopping.';
    try {
      await this.deps.database.ping();
    } catch (error) {
      this.deps.logger.warn('readiness: the database does not answer', { error: (error as Error)?.message });
      return 'The database does not answer.';
    }
    try {
      await this.deps.keyRing.signingKey();
    } catch (error) {
      this.deps.logger.warn('readiness: no signing key could be loaded', { error: (error as Error)?.message });
      return 'No signing key is loaded.';
    }
    return null;
  }
}
