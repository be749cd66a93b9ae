/**
 * `tsx scripts/smoke-release.ts`: a smoke run of the built release on the Node.js running it, for
 * a Node.js version the whole suite does not run on (scripts/test.sh, after the suite). On an
 * embedded SQLite file and, when TEST_DATABASE_URL is set, on PostgreSQL in a schema of its own:
 * start, /ready, the admin's login, a user created and logged in, /v1/users/me, a clean stop.
 *
 * `--refused` instead expects a release built with Node.js 22 or later, which has no driver for
 * Node.js 20, to refuse to start on Node.js 20, saying how to build one (the message an operator
 * who moved a release to an older Node.js meets).
 */
import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import postgres from 'postgres';
import { NODE20_SQLITE_DRIVER, SQLITE_DRIVER } from '../packages/adapters-persistence/src/sqlite/sqlite-driver';
import { ServerProcesses, type ServerProcess } from './release-process';

const servers = new ServerProcesses();
const say = (line: string) => process.stdout.write(`${line}\n`);

type Resource = { data: { id: string; attributes: Record<string, string> } };

async function json(server: ServerProcess, path: string, init: RequestInit, expected: number): Promise<Resource> {
  const response = await server.fetch(path, {
    ...init,
    headers: { 'content-type': 'application/vnd.api+json', ...init.headers },
  });
  const text = await response.text();
  if (response.status !== expected)
    throw new Error(`${init.method ?? 'GET'} ${path}: ${response.status}, expected ${expected}: ${text.slice(0, 300)}`);
  return JSON.parse(text) as Resource;
}

const post = (server: ServerProcess, path: string, attributes: object, token?: string) =>
  json(
    server,
    path,
    {
      method: 'POST',
      body: JSON.stringify({ data: { type: 'users', attributes } }),
      headers: token ? { authorization: `Bearer ${token}` } : {},
    },
    path === '/v1/admin/users' ? 201 : 200,
  );

async function walk(label: string, env: Record<string, string>): Promise<void> {
  const directory = await servers.tempDir();
  const keyPath = join(directory, 'admin.key');
  await servers.with({ ...env, ADMIN_KEY_PATH: keyPath }, { cwd: directory }, async (server) => {
    const ready = await server.fetch('/ready');
    if (ready.status !== 200) throw new Error(`GET /ready: ${ready.status}`);
    const admin = JSON.parse(await readFile(keyPath, 'utf8')) as { email: string; password: string };
    const adminToken = (await post(server, '/v1/admin/login', admin)).data.attributes.access_token;
    const user = { email: `smoke-${randomUUID()}@example.com`, password: 'smoke-password-1' };
    await post(server, '/v1/admin/users', { ...user, name: 'Smoke' }, adminToken);
    const token = (await post(server, '/v1/login', user)).data.attributes.access_token;
    const me = await json(server, '/v1/users/me', { headers: { authorization: `Bearer ${token}` } }, 200);
    if (me.data.attributes.email !== user.email) throw new Error('GET /v1/users/me answered another user.');
    await openIdEngine(server);
  });
  say(
    `ok: the release on Node.js ${process.version}, ${label}: start, login, user created and logged in, the OpenID engine's discovery and keys, clean stop`,
  );
}

/**
 * The OpenID engine, bundled in the release: discovery names the service (PUBLIC_URL's default,
 * localhost on its port) as issuer, the JWKS
 * holds the signing keys (an RS256 one among them), and on a Node.js the engine does not support
 * its warning is explained in the service's own log.
 */
async function openIdEngine(server: ServerProcess): Promise<void> {
  const discovery = (await (await server.fetch('/.well-known/openid-configuration')).json()) as Record<string, string>;
  const issuer = `http://localhost:${new URL(server.url).port}`;
  if (discovery.issuer !== issuer) throw new Error(`Discovery names the issuer ${discovery.issuer}, not ${issuer}.`);
  const jwks = (await (await server.fetch('/oidc/jwks')).json()) as { keys: { alg: string }[] };
  if (!jwks.keys.some(({ alg }) => alg === 'RS256')) throw new Error('The OpenID engine publishes no RS256 key.');
  const warned = server.stderr.includes('oidc-provider WARNING');
  if (warned !== server.stdout.includes('is not a Node.js the OpenID provider engine supports'))
    throw new Error(`The OpenID engine's warning is not explained in the log.\n${server.describe()}`);
}

async function smoke(): Promise<void> {
  await walk('SQLite', { DATABASE_URL: `sqlite:${join(await servers.tempDir(), 'app.db')}` });
  const url = process.env.TEST_DATABASE_URL;
  if (!url) {
    say('PostgreSQL skipped: TEST_DATABASE_URL is not set.');
    return;
  }
  const schema = `smoke_${randomUUID().replaceAll('-', '')}`;
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    await walk('PostgreSQL', { DATABASE_URL: url, DATABASE_SCHEMA: schema });
  } finally {
    await sql.unsafe(`drop schema if exists ${schema} cascade`);
    await sql.end();
  }
}

async function refused(): Promise<void> {
  if (SQLITE_DRIVER !== NODE20_SQLITE_DRIVER) {
    say(`skipped: Node.js ${process.version} loads the Node-API driver, which every release ships`);
    return;
  }
  const server = await servers.runToExit({ DATABASE_URL: `sqlite:${join(await servers.tempDir(), 'app.db')}` });
  if (server.exit.code === 0 || !/no SQLite driver that loads in this Node\.js[\s\S]*npm install/.test(server.stderr))
    throw new Error(`Expected a refusal that says how to rebuild the driver.\n${server.describe()}`);
  say(`ok: a release built with another Node.js refuses to start on ${process.version} and says how to rebuild it`);
}

(process.argv.includes('--refused') ? refused() : smoke())
  .catch((error: Error) => {
    process.stderr.write(`The release smoke run failed: ${error.message}\n`);
    process.exitCode = 1;
  })
  .finally(() => servers.cleanup());
