import { verify } from '@node-rs/bcrypt';
import type { HashFormat } from './hash-format';

const BCRYPT = /^\$2[aby]\$(\d\d)\$[./A-Za-z0-9]{53}$/;
/** The lowest cost bcrypt defines. */
const MIN_COST = 4;

/** bcrypt in its three current spellings: `$2a$` and `$2y$` (PHP) verify exactly as `$2b$`. */
export const bcryptFormat: HashFormat = {
  name: 'bcrypt',
  claims: (hash) => /^\$2[a-z]?\$/.test(hash),
  problem(hash, ceilings) {
    const cost = BCRYPT.exec(hash)?.[1];
    if (cost === undefined) return 'is not a well-formed bcrypt hash ($2a$, $2b$ or $2y$)';
    const value = Number(cost);
    if (value < MIN_COST) return `has a bcrypt cost below ${MIN_COST}`;
    return value > ceilings.bcryptCost ? `has a bcrypt cost over the ceiling of ${ceilings.bcryptCost}` : null;
  },
  verify: (password, hash) => verify(password, hash),
};

/** The cost of a well-formed bcrypt hash, or null for anything else. */
export function bcryptCost(hash: string): number | null {
  const cost = BCRYPT.exec(hash)?.[1];
  return cost === undefined ? null : Number(cost);
}
