/** How a login ended, as operators count them. */
export const LOGIN_OUTCOMES = ['success', 'wrong_password', 'throttled', 'inactive', 'unverified'] as const;
export type LoginOutcome = (typeof LOGIN_OUTCOMES)[number];

/**
 * What the HTTP layer reports to the metrics the server keeps (Prometheus, in apps/server), and
 * how it serves them. Labels are bounded: a route is its template, never the requested path.
 */
export interface HttpMetrics {
  requestFinished(request: { method: string; route: string; status: number; seconds: number }): void;
  loginFinished(outcome: LoginOutcome): void;
  refreshTokenReused(): void;
  /** The metrics in their text exposition format. */
  exposition(): Promise<{ contentType: string; body: string }>;
}

/** Metrics and the bearer token a scraper must present to read them at GET /metrics. */
export interface MetricsEndpoint {
  metrics: HttpMetrics;
  token: string;
}
