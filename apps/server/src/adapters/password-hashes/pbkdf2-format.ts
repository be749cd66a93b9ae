import { pbkdf2 as pbkdf2Callback } from 'node:crypto';
import { boundedInteger, decodeBase64, parsePhc, sameBytes } from './phc-string';
import type { HashFormat } from './hash-format';

interface Pbkdf2Hash {
  iterations: number;
  salt: Buffer;
  key: Buffer;
}

/**
 * `$pbkdf2-sha256$i=310000,l=32$salt$hash` (PHC) or passlib's `$pbkdf2-sha256$29000$salt$hash`,
 * whose base64 writes `.` for `+`.
 */
function parse(hash: string): Pbkdf2Hash | null {
  const passlib = /^\$pbkdf2-sha256\$(\d+)\$([^$]+)\$([^$]+)$/.exec(hash);
  const phc = passlib ? null : parsePhc(hash);
  if (!passlib && (phc?.id !== 'pbkdf2-sha256' || phc.version !== undefined || phc.fields.length !== 2)) return null;
  const iterations = boundedInteger(passlib ? passlib[1] : phc!.params.get('i'), 1, 2 ** 31 - 1);
  const salt = decodeBase64(passlib ? passlib[2] : phc!.fields[0]);
  const key = decodeBase64(passlib ? passlib[3] : phc!.fields[1]);
  const length = phc?.params.get('l');
  if (iterations === null || !salt || !key || key.length < 16) return null;
  if (length !== undefined && boundedInteger(length, 1, 1024) !== key.length) return null;
  return { iterations, salt, key };
}

export const pbkdf2Format: HashFormat = {
  name: 'pbkdf2-sha256',
  claims: (hash) => hash.startsWith('$pbkdf2-sha256$'),
  problem(hash, ceilings) {
    const parsed = parse(hash);
    if (!parsed) return 'is not a well-formed PBKDF2-SHA256 string ($pbkdf2-sha256$i=…$salt$hash)';
    return parsed.iterations > ceilings.pbkdf2Iterations
      ? `has more PBKDF2 iterations than the ceiling of ${ceilings.pbkdf2Iterations}`
      : null;
  },
  verify(password, hash) {
    const { iterations, salt, key } = parse(hash)!;
    return new Promise((resolve, reject) => {
      pbkdf2Callback(password, salt, iterations, key.length, 'sha256', (error, derived) =>
        error ? reject(error) : resolve(sameBytes(derived, key)),
      );
    });
  },
};
