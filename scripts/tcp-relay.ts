import { connect, createServer, type Server, type Socket } from 'node:net';
import { onLoopbackPort } from './loopback-url';

/** A loopback port that relays to a TCP server, and can play that server going away and coming back. */
export interface TcpRelay {
  /** `url` (a PostgreSQL URL) with the host and port changed to the relay's. */
  through(url: string): string;
  /**
   * The chunks its clients have sent so far: each write of postgres.js arrives as one, so a
   * statement sent in two round trips counts two, the second only after the server's answer.
   */
  readonly clientWrites: number;
  /** Ends every relayed connection and refuses new ones: the server stopped, as a restart or a failover stops it. */
  cut(): Promise<void>;
  /** Relays again, on the same port. */
  restore(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Relays 127.0.0.1:<a free port> to the server of `serverUrl`: put between a pooler and
 * PostgreSQL, it stops the server for the pooler alone, not for the other tests sharing it.
 */
export async function startTcpRelay(serverUrl: string): Promise<TcpRelay> {
  const target = new URL(serverUrl);
  const sockets = new Set<Socket>();
  let server: Server | undefined;
  let port = 0;
  let clientWrites = 0;

  const listen = async () => {
    const relay = createServer((client) => {
      const upstream = connect(Number(target.port || 5432), target.hostname);
      const pair = [client, upstream];
      for (const socket of pair) {
        sockets.add(socket);
        socket.on('error', () => {}); // each end closes the other below
        socket.on('close', () => {
          for (const other of pair) {
            other.destroy();
            sockets.delete(other);
          }
        });
      }
      client.on('data', () => void clientWrites++);
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((resolve, reject) => {
      relay.once('error', reject);
      relay.listen(port, '127.0.0.1', () => resolve());
    });
    const address = relay.address();
    port = typeof address === 'object' && address ? address.port : port;
    server = relay;
  };
  const stop = async () => {
    const closing = server;
    server = undefined;
    for (const socket of sockets) socket.destroy();
    sockets.clear();
    if (closing) await new Promise((resolve) => closing.close(resolve));
  };

  await listen();
  return {
    through: (url) => onLoopbackPort(url, port),
    get clientWrites() {
      return clientWrites;
    },
    cut: stop,
    restore: listen,
    close: stop,
  };
}
