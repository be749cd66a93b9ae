/** A method replaced by a recorder that still calls through, as `vi.spyOn` does. */
export interface Spy {
  (...args: unknown[]): unknown;
  mock: { calls: unknown[][] };
}

export function isSpy(value: unknown): value is Spy {
  return typeof value === 'function' && Array.isArray((value as Partial<Spy>).mock?.calls);
}

export interface Vi {
  spyOn<T extends object, K extends keyof T & string>(object: T, method: K): Spy;
}

export const neutralVi: Vi = {
  spyOn(object, method) {
    const original = object[method] as (...args: unknown[]) => unknown;
    const spy = Object.assign(
      function (this: unknown, ...args: unknown[]) {
        spy.mock.calls.push(args);
        return original.apply(this, args);
      },
      { mock: { calls: [] as unknown[][] } },
    );
    (object as Record<string, unknown>)[method] = spy;
    return spy;
  },
};
