import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { LOGIN_OUTCOMES, type HttpMetrics, type LoginOutcome } from '@uas/adapters-http';
import type { WebhookAttemptOutcome } from '@uas/domain';

const WEBHOOK_ATTEMPT_OUTCOMES = ['succeeded', 'retried', 'failed', 'gone'] as const;

/** What a revoking call of the session repository revokes: one session, all of an account's, one token. */
const REVOCATION_SCOPE: Record<string, string> = {
  revokeSession: 'session',
  revokeSubjectSessions: 'account',
  revokeToken: 'refresh_token',
};

/**
 * The service's Prometheus metrics (prom-client): requests by route template and status, logins
 * by outcome, refresh-token reuse detections, session revocations, database operations, and the
 * process's own (memory, CPU, event-loop lag, garbage collection). Every name starts `uas_`.
 */
export class PrometheusMetrics implements HttpMetrics {
  private readonly registry = new Registry();
  private readonly registers = [this.registry];
  private readonly requests = new Counter({
    name: 'uas_http_requests_total',
    help: 'HTTP requests answered, by method, route template and status.',
    labelNames: ['method', 'route', 'status'],
    registers: this.registers,
  });
  private readonly requestSeconds = new Histogram({
    name: 'uas_http_request_duration_seconds',
    help: 'Time from a request reaching the app to its response, by method, route template and status.',
    labelNames: ['method', 'route', 'status'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: this.registers,
  });
  private readonly logins = new Counter({
    name: 'uas_logins_total',
    help: 'Logins (admin and user) by outcome: success, wrong_password, throttled, inactive.',
    labelNames: ['outcome'],
    registers: this.registers,
  });
  private readonly reuses = new Counter({
    name: 'uas_refresh_token_reuse_detections_total',
    help: 'Retired refresh tokens presented again; each revoked its session.',
    registers: this.registers,
  });
  private readonly revocations = new Counter({
    name: 'uas_session_revocations_total',
    help: 'Revocations by scope: one session (reuse, a refused refresh), all sessions of an account (logout, deactivation, new password), one refresh token.',
    labelNames: ['scope'],
    registers: this.registers,
  });
  private readonly databaseSeconds = new Histogram({
    name: 'uas_db_operation_duration_seconds',
    help: 'Time of each repository operation (one or a few queries, or a transaction), by repository and operation.',
    labelNames: ['repository', 'operation'],
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 5],
    registers: this.registers,
  });
  private readonly databaseInFlight = new Gauge({
    name: 'uas_db_operations_in_flight',
    help: 'Repository operations running now; compare with uas_db_pool_size.',
    registers: this.registers,
  });

  private readonly webhookAttempts = new Counter({
    name: 'uas_webhook_attempts_total',
    help: 'Webhook delivery attempts by outcome: succeeded (2xx), retried (another attempt is scheduled), failed (given up after the last), gone (410: the endpoint is disabled).',
    labelNames: ['outcome'],
    registers: this.registers,
  });
  private readonly webhookPending = new Gauge({
    name: 'uas_webhook_deliveries_pending',
    help: 'Webhook deliveries waiting for an attempt, across every endpoint and instance.',
    registers: this.registers,
  });
  private readonly webhookLag = new Gauge({
    name: 'uas_webhook_delivery_lag_seconds',
    help: 'How long the longest due webhook delivery has waited past its time: 0 while the workers keep up.',
    registers: this.registers,
  });

  constructor(databasePoolSize: number) {
    new Gauge({
      name: 'uas_db_pool_size',
      help: 'Database connections this instance may open.',
      registers: this.registers,
    }).set(databasePoolSize);
    for (const outcome of LOGIN_OUTCOMES) this.logins.inc({ outcome }, 0);
    for (const scope of Object.values(REVOCATION_SCOPE)) this.revocations.inc({ scope }, 0);
    for (const outcome of WEBHOOK_ATTEMPT_OUTCOMES) this.webhookAttempts.inc({ outcome }, 0);
    collectDefaultMetrics({ register: this.registry, prefix: 'uas_' });
  }

  requestFinished({
    method,
    route,
    status,
    seconds,
  }: {
    method: string;
    route: string;
    status: number;
    seconds: number;
  }): void {
    const labels = { method, route, status: String(status) };
    this.requests.inc(labels);
    this.requestSeconds.observe(labels, seconds);
  }

  loginFinished(outcome: LoginOutcome): void {
    this.logins.inc({ outcome });
  }

  refreshTokenReused(): void {
    this.reuses.inc();
  }

  /** Times one repository call, and counts it when it revokes sessions. */
  async databaseOperation<T>(repository: string, operation: string, run: () => Promise<T>): Promise<T> {
    const end = this.databaseSeconds.startTimer({ repository, operation });
    this.databaseInFlight.inc();
    try {
      const result = await run();
      const scope = repository === 'sessions' ? REVOCATION_SCOPE[operation] : undefined;
      if (scope !== undefined) this.revocations.inc({ scope });
      return result;
    } finally {
      this.databaseInFlight.dec();
      end();
    }
  }

  async exposition(): Promise<{ contentType: string; body: string }> {
    return { contentType: this.registry.contentType, body: await this.registry.metrics() };
  }

  /** Counts a settled webhook attempt by its outcome. */
  webhookAttempt(outcome: WebhookAttemptOutcome): void {
    const label = outcome.gone ? 'gone' : outcome.status === 'pending' ? 'retried' : outcome.status;
    this.webhookAttempts.inc({ outcome: label });
  }

  /** The deliveries waiting, and how late the longest due of them is. */
  webhookBacklog({ pending, oldestDueSeconds }: { pending: number; oldestDueSeconds: number }): void {
    this.webhookPending.set(pending);
    this.webhookLag.set(oldestDueSeconds);
  }
}
