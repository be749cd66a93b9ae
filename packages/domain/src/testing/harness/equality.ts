/** A value that stands for any value it `matches`, as `expect.any(String)` does inside `toEqual`. */
export interface AsymmetricMatcher {
  readonly asymmetricMatch: (actual: unknown) => boolean;
  toString(): string;
}

function isAsymmetric(value: unknown): value is AsymmetricMatcher {
  return (
    typeof value === 'object' && value !== null && typeof (value as AsymmetricMatcher).asymmetricMatch === 'function'
  );
}

/** `expect.any(Type)`: a primitive of that type or an instance of that class. */
export function any(type: abstract new (...args: never[]) => unknown): AsymmetricMatcher {
  const primitive = new Map<unknown, string>([
    [String, 'string'],
    [Number, 'number'],
    [Boolean, 'boolean'],
    [BigInt, 'bigint'],
    [Symbol, 'symbol'],
    [Function, 'function'],
  ]);
  return {
    asymmetricMatch: (actual) => typeof actual === primitive.get(type) || actual instanceof type,
    toString: () => `Any<${type.name}>`,
  };
}

/**
 * Deep equality as vitest's `toEqual` reads it (undefined properties count as absent, class is
 * ignored) or, when `partial`, as `toMatchObject` does (only the expected object's keys matter).
 */
export function deepEquals(actual: unknown, expected: unknown, partial = false): boolean {
  if (isAsymmetric(expected)) return expected.asymmetricMatch(actual);
  if (Object.is(actual, expected)) return true;
  if (typeof actual !== 'object' || typeof expected !== 'object' || actual === null || expected === null) return false;
  // As vitest's toMatchObject: a plain expected object matches the keys of any object, so an
  // error is matched by its `code`.
  if (partial && Object.getPrototypeOf(expected) === Object.prototype && !Array.isArray(actual)) {
    const a = actual as Record<string, unknown>;
    return Object.entries(expected).every(([key, value]) => key in a && deepEquals(a[key], value, true));
  }
  if (Object.prototype.toString.call(actual) !== Object.prototype.toString.call(expected)) return false;
  if (actual instanceof Date) return actual.getTime() === (expected as Date).getTime();
  if (actual instanceof RegExp) return String(actual) === String(expected);
  if (ArrayBuffer.isView(actual)) return deepEquals([...(actual as Uint8Array)], [...(expected as Uint8Array)]);
  if (actual instanceof Map || actual instanceof Set) {
    return deepEquals([...actual.entries()], [...(expected as Map<unknown, unknown>).entries()], partial);
  }
  if (Array.isArray(actual)) {
    const list = expected as unknown[];
    return actual.length === list.length && actual.every((item, index) => deepEquals(item, list[index], partial));
  }
  if (
    actual instanceof Error &&
    (actual.message !== (expected as Error).message || actual.name !== (expected as Error).name)
  )
    return false;
  const a = actual as Record<string, unknown>;
  const e = expected as Record<string, unknown>;
  const definedKeys = (record: Record<string, unknown>) =>
    Object.keys(record).filter((key) => record[key] !== undefined);
  if (partial) return Object.keys(e).every((key) => key in a && deepEquals(a[key], e[key], true));
  const keys = definedKeys(a);
  return keys.length === definedKeys(e).length && keys.every((key) => deepEquals(a[key], e[key]));
}

/** A short, readable rendering of a value for failure messages. */
export function show(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'function') return `[Function ${value.name || 'anonymous'}]`;
  if (typeof value !== 'object' || value === null) return String(value);
  if (isAsymmetric(value) || value instanceof Date || value instanceof RegExp) return String(value);
  if (value instanceof Error) return `${value.name}: ${value.message}`;
  try {
    return JSON.stringify(value, (_key, item: unknown) => (isAsymmetric(item) ? String(item) : item));
  } catch {
    return Object.prototype.toString.call(value);
  }
}
