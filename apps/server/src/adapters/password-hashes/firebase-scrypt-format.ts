import { createCipheriv } from 'node:crypto';
import { decodeBase64, parsePhc, sameBytes } from './phc-string';
import { deriveScrypt, scryptCeilingProblem, scryptCost, type ScryptCost } from './scrypt-format';
import type { HashFormat } from './hash-format';

interface FirebaseHash {
  cost: ScryptCost;
  salt: Buffer;
  key: Buffer;
  saltSeparator: Buffer;
  signerKey: Buffer;
}

/**
 * `$firescrypt$ln=<mem_cost>,r=<rounds>,p=1$<salt>$<hash>$<salt separator>$<signer key>`, each
 * part in standard base64 as the Firebase export and project settings give them (the layout Ory
 * Kratos reads too).
 */
function parse(hash: string): FirebaseHash | null {
  const phc = parsePhc(hash);
  const cost = phc?.id === 'firescrypt' ? scryptCost(phc) : null;
  if (!phc || !cost || phc.version !== undefined || phc.fields.length !== 4) return null;
  const [salt, key, saltSeparator, signerKey] = phc.fields.map(decodeBase64);
  if (!salt || !key || !saltSeparator || !signerKey || key.length !== signerKey.length) return null;
  return { cost, salt, key, saltSeparator, signerKey };
}

/** Firebase's scrypt: the derived key encrypts the project's signer key with AES-256-CTR and a zero IV. */
export const firebaseScryptFormat: HashFormat = {
  name: 'firebase-scrypt',
  claims: (hash) => hash.startsWith('$firescrypt$'),
  problem(hash, ceilings) {
    const parsed = parse(hash);
    return parsed
      ? scryptCeilingProblem(parsed.cost, ceilings)
      : 'is not a well-formed Firebase scrypt string ($firescrypt$ln=…,r=…,p=…$salt$hash$separator$signer key)';
  },
  async verify(password, hash) {
    const { cost, salt, key, saltSeparator, signerKey } = parse(hash)!;
    const derived = await deriveScrypt(password, Buffer.concat([salt, saltSeparator]), cost, 32);
    const cipher = createCipheriv('aes-256-ctr', derived, Buffer.alloc(16));
    return sameBytes(Buffer.concat([cipher.update(signerKey), cipher.final()]), key);
  },
};
