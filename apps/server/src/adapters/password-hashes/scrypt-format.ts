import { scrypt as scryptCallback, type ScryptOptions } from 'node:crypto';
import { boundedInteger, decodeBase64, parsePhc, sameBytes, type PhcString } from './phc-string';
import { MIB, type HashCeilings, type HashFormat } from './hash-format';

export interface ScryptCost {
  /** log2 of N. */
  ln: number;
  r: number;
  p: number;
}

/** ln, r and p of a PHC-style parameter list, or null when one is missing or absurd. */
export function scryptCost(phc: PhcString): ScryptCost | null {
  const ln = boundedInteger(phc.params.get('ln'), 1, 31);
  const r = boundedInteger(phc.params.get('r'), 1, 1024);
  const p = boundedInteger(phc.params.get('p'), 1, 64);
  return ln === null || r === null || p === null ? null : { ln, r, p };
}

const memoryBytes = ({ ln, r, p }: ScryptCost) => 128 * 2 ** ln * r * p;

export function scryptCeilingProblem(cost: ScryptCost, ceilings: HashCeilings): string | null {
  return memoryBytes(cost) > ceilings.memoryMiB * MIB
    ? `needs more than the ceiling of ${ceilings.memoryMiB} MiB of memory`
    : null;
}

/** node:crypto's scrypt on libuv's thread pool, allowed exactly the memory the cost needs. */
export function deriveScrypt(
  password: string | Buffer,
  salt: Buffer,
  cost: ScryptCost,
  length: number,
): Promise<Buffer> {
  const options: ScryptOptions = { N: 2 ** cost.ln, r: cost.r, p: cost.p, maxmem: memoryBytes(cost) + MIB };
  return new Promise((resolve, reject) => {
    scryptCallback(password, salt, length, options, (error, key) => (error ? reject(error) : resolve(key)));
  });
}

interface ScryptHash {
  cost: ScryptCost;
  salt: Buffer;
  key: Buffer;
}

function parse(hash: string): ScryptHash | null {
  const phc = parsePhc(hash);
  const cost = phc?.id === 'scrypt' ? scryptCost(phc) : null;
  if (!phc || !cost || phc.version !== undefined || phc.fields.length !== 2) return null;
  const salt = decodeBase64(phc.fields[0]);
  const key = decodeBase64(phc.fields[1]);
  return salt && key && key.length >= 16 ? { cost, salt, key } : null;
}

/** scrypt PHC strings (`$scrypt$ln=16,r=8,p=1$salt$hash`), as passlib and others write them. */
export const scryptFormat: HashFormat = {
  name: 'scrypt',
  claims: (hash) => hash.startsWith('$scrypt$'),
  problem(hash, ceilings) {
    const parsed = parse(hash);
    return parsed
      ? scryptCeilingProblem(parsed.cost, ceilings)
      : 'is not a well-formed scrypt PHC string (ln, r, p, salt and hash)';
  },
  async verify(password, hash) {
    const { cost, salt, key } = parse(hash)!;
    return sameBytes(await deriveScrypt(password, salt, cost, key.length), key);
  },
};
