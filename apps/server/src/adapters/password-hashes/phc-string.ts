import { timingSafeEqual } from 'node:crypto';

/** `$id$[v=19$]a=1,b=2$salt$hash`, split into its parts; null when it has no such shape. */
export interface PhcString {
  id: string;
  version: string | undefined;
  params: Map<string, string>;
  fields: string[];
}

export function parsePhc(hash: string): PhcString | null {
  const parts = hash.split('$');
  if (parts.length < 4 || parts[0] !== '') return null;
  const [, id, ...rest] = parts as [string, string, ...string[]];
  const version = rest[0]?.startsWith('v=') ? rest.shift()!.slice(2) : undefined;
  const params = new Map<string, string>();
  for (const pair of (rest.shift() ?? '').split(',')) {
    const [key, value, extra] = pair.split('=');
    if (!key || value === undefined || extra !== undefined) return null;
    params.set(key, value);
  }
  return { id, version, params, fields: rest };
}

/** A whole number within [min, max] written in decimal, else null. */
export function boundedInteger(text: string | undefined, min: number, max: number): number | null {
  if (text === undefined || !/^\d{1,10}$/.test(text)) return null;
  const value = Number(text);
  return value >= min && value <= max ? value : null;
}

/**
 * Base64 in any of the spellings hash formats use: standard, PHC's unpadded, passlib's with `.`
 * for `+`. Node's decoder skips foreign characters silently, so they are refused here first.
 */
export function decodeBase64(text: string | undefined): Buffer | null {
  if (text === undefined || text === '' || !/^[A-Za-z0-9+/.]+={0,2}$/.test(text)) return null;
  return Buffer.from(text.replace(/\./g, '+'), 'base64');
}

export function sameBytes(a: Buffer, b: Buffer): boolean {
  return a.length === b.length && timingSafeEqual(a, b);
}
