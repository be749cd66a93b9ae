export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };
export type JsonObject = { [key: string]: JsonValue };

export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Size in bytes of the UTF-8 JSON text of a value, the unit the size limits are written in. */
export function jsonByteLength(value: JsonValue): number {
  return utf8ByteLength(JSON.stringify(value));
}

export function utf8ByteLength(text: string): number {
  return new TextEncoder().encode(text).length;
}
