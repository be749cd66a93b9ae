import { isConnectionFailure } from '@uas/adapters-persistence';
import type { Logger } from '@uas/domain';

/**
 * What the process does with a rejected promise nothing awaited. A connection failure is logged
 * and the service serves on: under load, with PgBouncer restarted, a connection refused while the
 * pooler was down once reached no caller and ended the process (about one run in ten of the outage
 * test), where every request meanwhile got its 503 and service resumes when the database returns.
 * Any other is a fault: it is thrown again, and ends the process as Node.js would.
 */
export function strayRejectionListener(logger: Logger): (reason: unknown) => void {
  return (reason) => {
    if (!isConnectionFailure(reason)) throw reason;
    const { code, message } = reason as { code?: unknown; message?: unknown };
    logger.warn('a connection failure reached no caller; serving on', { code, error: message });
  };
}
