import type { CpuSplit } from './process-cpu';
import { Agent, type IncomingHttpHeaders, request } from 'node:http';

const REQUEST_TIMEOUT_MS = 15_000;

export interface Reply {
  status: number;
  body: string;
  headers: IncomingHttpHeaders;
}

export interface SendOptions {
  /** A Bearer access token. */
  token?: string;
  /** A JSON body. */
  json?: unknown;
  /** A form body (application/x-www-form-urlencoded), as OAuth's endpoints take. */
  form?: URLSearchParams;
  /** The client address the server sees, through its trusted proxy (see CLIENT_ADDRESS_ENV). */
  from?: string;
  /** Any other header (a cookie, HTTP Basic credentials). */
  headers?: Record<string, string>;
}

/**
 * Keep-alive HTTP/1.1 to one server, or to several in turn (as a load balancer would spread the
 * requests over instances). node:http rather than fetch: the load generator shares the machine's
 * cores with the server, and node:http costs the client less CPU per request.
 */
export class HttpClient {
  private readonly agent: Agent;
  private readonly baseUrls: readonly string[];
  private sent = 0;

  constructor(baseUrl: string | readonly string[], sockets: number) {
    this.baseUrls = typeof baseUrl === 'string' ? [baseUrl] : baseUrl;
    this.agent = new Agent({ keepAlive: true, maxSockets: sockets });
  }

  send(method: string, path: string, { token, json, form, from, headers: extra }: SendOptions = {}): Promise<Reply> {
    const baseUrl = this.baseUrls[this.sent++ % this.baseUrls.length]!;
    const body = json === undefined ? form?.toString() : JSON.stringify(json);
    const headers: Record<string, string> = { ...extra };
    if (from) headers['x-forwarded-for'] = from;
    if (token) headers.authorization = `Bearer ${token}`;
    if (body !== undefined)
      Object.assign(headers, {
        'content-type': json === undefined ? 'application/x-www-form-urlencoded' : 'application/json',
        'content-length': String(Buffer.byteLength(body)),
      });
    return new Promise((resolve, reject) => {
      const sent = request(
        `${baseUrl}${path}`,
        { method, headers, agent: this.agent, timeout: REQUEST_TIMEOUT_MS },
        (response) => {
          let text = '';
          response.setEncoding('utf8');
          response.on('data', (chunk: string) => void (text += chunk));
          response.on('end', () =>
            resolve({ status: response.statusCode ?? 0, body: text, headers: response.headers }),
          );
          response.on('error', reject);
        },
      );
      sent.on('timeout', () => sent.destroy(new Error(`${method} ${path}: no answer within ${REQUEST_TIMEOUT_MS} ms`)));
      sent.on('error', reject);
      sent.end(body);
    });
  }

  close(): void {
    this.agent.destroy();
  }
}

export interface Load {
  concurrency: number;
  durationMs: number;
  /** Run before the measurement, unrecorded, so the figures are of a warm server. */
  warmUpMs: number;
}

/** One request of one worker, resolving to the answer's status. */
export type Step = () => Promise<number>;

export interface Figures {
  requests: number;
  perSecond: number;
  p50: number;
  p95: number;
  p99: number;
  /** Answers with another status than expected, and requests that failed outright, by status ('error'). */
  unexpected: Record<string, number>;
  firstError?: string;
  /** CPU time per request (its probes' requests included), with several servers (see measureScenario). */
  cpu?: CpuSplit;
}

/** A measurement that runs in one or more slices of time, its figures over all of them. */
export interface Measurement {
  /** Sends requests for `ms`, recorded unless `record` is false (a warm-up). */
  run(ms: number, record?: boolean): Promise<void>;
  figures(): Figures;
}

/**
 * `load.concurrency` workers, each with its own step from `prepare` (set up unmeasured: a login,
 * say), send one request after another while a slice lasts; the requests then in flight are
 * awaited and counted. Latency is per request, in milliseconds. The rate is each worker's
 * requests over its own time, summed: a slice's tail, while the last requests finish, would
 * otherwise count as time at full load, once for each slice.
 */
export async function startMeasurement(
  concurrency: number,
  expected: number,
  prepare: (worker: number) => Promise<Step>,
): Promise<Measurement> {
  const steps = await Promise.all(Array.from({ length: concurrency }, (_, worker) => prepare(worker)));
  const latencies: number[] = [];
  const unexpected: Record<string, number> = {};
  let firstError: string | undefined;
  const answered = steps.map(() => 0);
  const busyMs = steps.map(() => 0);
  return {
    async run(ms, record = true) {
      const started = performance.now();
      const end = started + ms;
      await Promise.all(
        steps.map(async (step, worker) => {
          while (performance.now() < end) {
            const sent = performance.now();
            const status = await step().catch((error: Error) => ((firstError ??= error.message), 'error' as const));
            if (!record) continue;
            latencies.push(performance.now() - sent);
            answered[worker]!++;
            if (status !== expected) unexpected[status] = (unexpected[status] ?? 0) + 1;
          }
          if (record) busyMs[worker]! += performance.now() - started;
        }),
      );
    },
    figures() {
      const sorted = latencies.toSorted((a, b) => a - b);
      const percentile = (p: number) => sorted[Math.max(0, Math.ceil(p * sorted.length) - 1)] ?? NaN;
      const perSecond = answered.reduce((sum, n, worker) => sum + (n && (1000 * n) / busyMs[worker]!), 0);
      return {
        requests: sorted.length,
        perSecond,
        p50: percentile(0.5),
        p95: percentile(0.95),
        p99: percentile(0.99),
        unexpected,
        ...(firstError === undefined ? {} : { firstError }),
      };
    },
  };
}

/** A warm-up, then one slice of `load.durationMs`. */
export async function measure(
  load: Load,
  expected: number,
  prepare: (worker: number) => Promise<Step>,
): Promise<Figures> {
  const measurement = await startMeasurement(load.concurrency, expected, prepare);
  await measurement.run(load.warmUpMs, false);
  await measurement.run(load.durationMs);
  return measurement.figures();
}
