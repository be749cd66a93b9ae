import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';

const SMTP_USER = 'mailer';
/** With characters a URL must escape, so the adapter's decoding is tested too. */
export const SMTP_PASSWORD = 'pa:ss@w0rd/%x';

/**
 * A real SMTP server on loopback (smtp-server), keeping every message it accepts as mailparser
 * reads it. It can refuse recipients with a reply code, and stop and start again on its port.
 */
export class TestSmtpServer {
  readonly received: ParsedMail[] = [];
  /** Reply code and text by recipient address. */
  readonly refusals = new Map<string, { code: number; text: string }>();
  /** Connection errors of clients, kept rather than thrown (see start). */
  readonly connectionErrors: Error[] = [];
  private server: SMTPServer | null = null;
  port = 0;

  /** `smtp://user:pass@127.0.0.1:port`, with the password given (the right one unless told). */
  url(password = SMTP_PASSWORD): URL {
    return new URL(`smtp://${SMTP_USER}:${encodeURIComponent(password)}@127.0.0.1:${this.port}`);
  }

  async start(): Promise<void> {
    const server = new SMTPServer({
      disabledCommands: ['STARTTLS'],
      allowInsecureAuth: true,
      logger: false,
      onAuth: (auth, _session, callback) =>
        auth.username === SMTP_USER && auth.password === SMTP_PASSWORD
          ? callback(null, { user: auth.username })
          : // Echoes what it was sent, as a careless server may: the adapter must not pass it on.
            callback(Object.assign(new Error(`Authentication failed for ${auth.password}`), { responseCode: 535 })),
      onRcptTo: (address, _session, callback) => {
        const refusal = this.refusals.get(address.address);
        callback(refusal ? Object.assign(new Error(refusal.text), { responseCode: refusal.code }) : null);
      },
      onData: (stream, _session, callback) => {
        simpleParser(stream).then(
          (parsed) => {
            this.received.push(parsed);
            callback();
          },
          (error: Error) => callback(error),
        );
      },
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', () => resolve());
    });
    // A client killed mid-session (the crash tests' kill -9) resets its connection: smtp-server
    // reports that as an 'error' event, which must not become the test process's uncaught one.
    server.on('error', (error: Error) => this.connectionErrors.push(error));
    this.server = server;
    this.port = (server.server.address() as AddressInfo).port;
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = null;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

export async function startTestSmtpServer(): Promise<TestSmtpServer> {
  const server = new TestSmtpServer();
  await server.start();
  return server;
}
