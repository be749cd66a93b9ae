/** Rounds of each race, as the issues ask for, per database. */
export const ROUNDS = 50;
/** Rounds in flight at once: enough to keep both databases busy, few enough for two shared cores. */
const ROUNDS_AT_ONCE = 10;

/** Runs `round` ROUNDS times, ROUNDS_AT_ONCE at once, and answers each round's outcome. */
export async function rounds<T>(round: (index: number) => Promise<T>): Promise<T[]> {
  const outcomes: T[] = [];
  for (let start = 0; start < ROUNDS; start += ROUNDS_AT_ONCE) {
    const batch = Array.from({ length: Math.min(ROUNDS_AT_ONCE, ROUNDS - start) }, (_, i) => start + i);
    outcomes.push(...(await Promise.all(batch.map(round))));
  }
  return outcomes;
}

/** How many times each value was answered. */
export const tally = (values: (number | string)[]) =>
  Object.fromEntries(
    [...new Set(values)].sort().map((value) => [value, values.filter((each) => each === value).length]),
  );
