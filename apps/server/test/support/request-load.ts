import { Agent, request } from 'node:http';

/** One request of a load: when it was sent, and its status or the error that ended it. */
export interface LoadRequest {
  sentAt: number;
  status?: number;
  error?: string;
}

/**
 * `clients` loops, each sending GET `path` (with `headers`) to 127.0.0.1:`port` over keep-alive connections and
 * waiting for the answer before the next, until `stop()`; a failed request pauses its loop
 * briefly (connection refused is what a stopped server gives). Every request is recorded.
 */
export function startLoad(port: number, path: string, clients: number, headers: Record<string, string> = {}) {
  const agent = new Agent({ keepAlive: true, maxSockets: clients });
  const requests: LoadRequest[] = [];
  let running = true;
  const send = () =>
    new Promise<void>((resolve) => {
      const record: LoadRequest = { sentAt: performance.now() };
      requests.push(record);
      const req = request({ host: '127.0.0.1', port, path, headers, agent, timeout: 20_000 }, (res) => {
        res.resume().on('end', () => {
          record.status = res.statusCode;
          resolve();
        });
        res.on('error', (error: NodeJS.ErrnoException) => {
          record.error = error.code ?? error.message;
          resolve();
        });
      });
      req.on('timeout', () => req.destroy(new Error('timeout')));
      req.on('error', (error: NodeJS.ErrnoException) => {
        record.error = error.code ?? error.message;
        setTimeout(resolve, 20);
      });
      req.end();
    });
  const loops = Array.from({ length: clients }, async () => {
    while (running) await send();
  });
  return {
    requests,
    /** Ends every loop once its request in flight has ended; resolves with every request. */
    async stop(): Promise<LoadRequest[]> {
      running = false;
      await Promise.all(loops);
      agent.destroy();
      return requests;
    },
  };
}

/** Requests sent before `at` that got no answer: lost by the server, since it had them. */
export const droppedBefore = (requests: readonly LoadRequest[], at: number) =>
  requests.filter((r) => r.sentAt < at && r.status === undefined);
