/** Polls `condition` until it holds; rejects when it still does not after `timeoutMs`. */
export async function eventually(condition: () => boolean | Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`not within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Polls `read` until it answers a value, and answers it; rejects after `timeoutMs`. */
export async function eventualValue<T>(read: () => Promise<T | undefined>, timeoutMs = 10_000): Promise<T> {
  let value: T | undefined;
  await eventually(async () => (value = await read()) !== undefined, timeoutMs);
  return value as T;
}
