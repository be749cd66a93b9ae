export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };
export type JsonObject = { [key: string]: JsonValue };

export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Size in bytes of the UTF-8 JSON text of a value, the unit the size limits are written in. A value
 * nested too deeply to serialise (the stack runs out) is larger than any limit: Infinity.
 */
export function jsonByteLength(value: JsonValue): number {
  try {
    return utf8ByteLength(JSON.stringify(value));
  } catch (error) {
    if (error instanceof RangeError) return Number.POSITIVE_INFINITY;
    throw error;
  }
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: NUL is what this refuses
const NUL_OR_LONE_SURROGATE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * Whether every database can store `text` as it is: well-formed Unicode without NUL (PostgreSQL
 * refuses NUL in text and jsonb; a lone surrogate is refused by jsonb and garbled elsewhere).
 */
export function isStorableText(text: string): boolean {
  return !NUL_OR_LONE_SURROGATE.test(text);
}

/**
 * Whether every key and string inside a JSON value is storable text and every number finite
 * (JSON.parse turns 1e400 into Infinity, which would be stored as null without a word).
 */
export function isStorableJson(value: JsonValue): boolean {
  if (typeof value === 'string') return isStorableText(value);
  if (typeof value === 'number') return Number.isFinite(value);
  if (Array.isArray(value)) return value.every(isStorableJson);
  if (value !== null && typeof value === 'object') {
    return Object.entries(value).every(([key, item]) => isStorableText(key) && isStorableJson(item));
  }
  return true;
}

export function utf8ByteLength(text: string): number {
  return new TextEncoder().encode(text).length;
}
