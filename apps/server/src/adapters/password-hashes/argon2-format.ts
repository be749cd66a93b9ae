import { verify } from '@node-rs/argon2';
import { boundedInteger, decodeBase64, parsePhc } from './phc-string';
import type { HashFormat } from './hash-format';

/** argon2id and argon2i PHC strings (`$argon2id$v=19$m=65536,t=3,p=4$salt$hash`), as every argon2 library writes them. */
export const argon2Format: HashFormat = {
  name: 'argon2',
  claims: (hash) => hash.startsWith('$argon2'),
  problem(hash, ceilings) {
    const phc = parsePhc(hash);
    if (!phc || (phc.id !== 'argon2id' && phc.id !== 'argon2i')) return 'is not an argon2id or argon2i PHC string';
    if (phc.version !== undefined && phc.version !== '19' && phc.version !== '16')
      return 'has an unknown argon2 version';
    const memoryKiB = boundedInteger(phc.params.get('m'), 8, 2 ** 32 - 1);
    const passes = boundedInteger(phc.params.get('t'), 1, 2 ** 32 - 1);
    const lanes = boundedInteger(phc.params.get('p'), 1, 255);
    const [salt, key, ...extra] = phc.fields;
    if (
      memoryKiB === null ||
      passes === null ||
      lanes === null ||
      extra.length > 0 ||
      !decodeBase64(salt) ||
      !decodeBase64(key)
    ) {
      return 'is not a well-formed argon2 PHC string (m, t, p, salt and hash)';
    }
    if (memoryKiB > ceilings.memoryMiB * 1024)
      return `needs more than the ceiling of ${ceilings.memoryMiB} MiB of memory`;
    if (passes > ceilings.argon2Passes) return `has more argon2 passes than the ceiling of ${ceilings.argon2Passes}`;
    return null;
  },
  verify: (password, hash) => verify(hash, password),
};
