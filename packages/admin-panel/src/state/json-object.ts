import type { UserAttributes } from '@uas/client';

type JsonObject = UserAttributes['metadata'];

export type JsonObjectResult = { ok: true; value: JsonObject } | { ok: false; problem: string };

/** Parses text typed by the admin as a JSON object; blank text means `{}`. */
export function parseJsonObject(text: string): JsonObjectResult {
  if (text.trim() === '') return { ok: true, value: {} };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { ok: false, problem: `Not valid JSON: ${(error as Error).message}` };
  }
  if (!isJsonObject(value)) {
    return { ok: false, problem: 'Must be a JSON object, such as {"plan": "pro"}.' };
  }
  return { ok: true, value };
}

function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Structural equality of JSON values (key order does not matter). */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((v, i) => jsonEqual(v, b[i]));
  }
  if (!isJsonObject(a) || !isJsonObject(b)) return false;
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((k) => Object.hasOwn(b, k) && jsonEqual(a[k], b[k]));
}

export function formatJson(value: JsonObject): string {
  return Object.keys(value).length === 0 ? '{}' : JSON.stringify(value, null, 2);
}
