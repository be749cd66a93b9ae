import type { PrometheusMetrics } from './prometheus-metrics';

/**
 * The repository with every method call timed by `metrics`; otherwise unchanged. Every port
 * method returns a promise, so each call is one awaited database operation.
 */
export function instrumentRepository<T extends object>(name: string, repository: T, metrics: PrometheusMetrics): T {
  const wrapped = new Map<PropertyKey, unknown>();
  return new Proxy(repository, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (typeof value !== 'function' || typeof property !== 'string') return value;
      if (!wrapped.has(property)) {
        wrapped.set(property, (...args: unknown[]) =>
          metrics.databaseOperation(name, property, () =>
            (value as (...a: unknown[]) => Promise<unknown>).apply(target, args),
          ),
        );
      }
      return wrapped.get(property);
    },
  });
}
