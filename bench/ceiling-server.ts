/**
 * The ceiling of every figure: a bare Hono server on @hono/node-server, as the service runs,
 * answering every GET with the body in the file named by argv[2] from memory. It prints its
 * port on stdout once it listens.
 */
import { readFileSync } from 'node:fs';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';

const body = readFileSync(process.argv[2]!, 'utf8');
const app = new Hono().get('*', (c) => c.body(body, 200, { 'content-type': 'application/vnd.api+json' }));
serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }, (info) => console.log(info.port));
process.stdin.on('end', () => process.exit(0)).resume();
