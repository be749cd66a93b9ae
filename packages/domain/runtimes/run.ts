/**
 * Runs the built domain's unit tests and in-memory contract suites in Node, Deno, Bun, workerd and
 * Chromium (every runtime from npm, Chromium from Debian), each with its own runner or a thin
 * driver, and fails unless every runtime passed every collected case.
 */
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { chromium } from 'playwright-core';
import { run, RUNTIME_TIMEOUT_MS } from './child.ts';
import { serveWorker } from './workerd.ts';

const here = dirname(fileURLToPath(import.meta.url));
const builtPackage = join(here, '..', 'dist');
const out = join(here, 'dist');
const require = createRequire(import.meta.url);
const binary = {
  deno: join(dirname(require.resolve('deno/package.json')), 'deno'),
  bun: join(dirname(require.resolve('bun/package.json')), 'bin', 'bun.exe'),
};

interface Outcome {
  runtime: string;
  version: string;
  passed: number;
  failed: number;
  /** The runner's report, shown when the runtime did not pass. */
  report: string;
}

async function testFiles(directory: string): Promise<string[]> {
  const entries = await readdir(directory, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile() && entry.name.endsWith('.test.js'))
    .map((entry) => join(entry.parentPath, entry.name))
    .sort();
}

/** Counts a runner's summary line such as `# pass 12`, `12 pass` or `12 passed`. */
function count(report: string, pattern: RegExp): number {
  const match = pattern.exec(report);
  return match ? Number(match[1]) : 0;
}

async function runner(
  runtime: string,
  version: string,
  command: string,
  args: string[],
  counts: { passed: RegExp; failed: RegExp },
): Promise<Outcome> {
  const { code, output } = await run(command, args, { cwd: join(here, '..'), env: { ...process.env, NO_COLOR: '1' } });
  // A runner that exits non-zero has failed even when its summary says otherwise.
  const failed = Math.max(count(output, counts.failed), code === 0 ? 0 : 1);
  return { runtime, version, passed: count(output, counts.passed), failed, report: output };
}

async function version(command: string, args: string[]): Promise<string> {
  return (await run(command, args)).output.trim().split('\n')[0] ?? '?';
}

function fromCollected(
  runtime: string,
  version: string,
  outcome: { passed: number; failed: number; failures: unknown[] },
): Outcome {
  return {
    runtime,
    version,
    passed: outcome.passed,
    failed: outcome.failed,
    report: JSON.stringify(outcome.failures, null, 2),
  };
}

async function inWorkerd(): Promise<Outcome> {
  const worker = await serveWorker(join(out, 'worker.js'), out);
  try {
    const response = await fetch(worker.url, { signal: AbortSignal.timeout(RUNTIME_TIMEOUT_MS) });
    return fromCollected('workerd', await version(require('workerd').default, ['--version']), await response.json());
  } finally {
    await worker.stop();
  }
}

async function inChromium(): Promise<Outcome> {
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--headless',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
    timeout: 30_000,
  });
  try {
    const page = await browser.newPage();
    // Served by the driver, not the network; localhost makes the page a secure context.
    const origin = 'http://localhost';
    const script = await readFile(join(out, 'page.js'), 'utf8');
    await page.route(`${origin}/**`, (route) =>
      route.request().url().endsWith('/page.js')
        ? route.fulfill({ contentType: 'text/javascript', body: script })
        : route.fulfill({
            contentType: 'text/html',
            body: '<!doctype html><script type="module" src="/page.js"></script>',
          }),
    );
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(`${origin}/`);
    await page
      .waitForFunction(() => 'suiteOutcome' in globalThis, undefined, { timeout: 30_000 })
      .catch(() => {
        throw new Error(`the suites did not load in Chromium: ${errors.join('; ')}`);
      });
    const outcome = await page.evaluate(
      () =>
        (globalThis as unknown as { suiteOutcome: Promise<{ passed: number; failed: number; failures: unknown[] }> })
          .suiteOutcome,
    );
    return fromCollected('chromium', browser.version(), outcome);
  } finally {
    await browser.close();
  }
}

async function main(): Promise<void> {
  await mkdir(out, { recursive: true });
  const files = await testFiles(builtPackage);
  await writeFile(join(out, 'all-tests.js'), files.map((file) => `import '${relative(out, file)}';\n`).join(''));
  // The neutral host collects without running: this is how many cases every runtime must pass.
  await import(pathToFileURL(join(out, 'all-tests.js')).href);
  const { collectedTests } = await import(pathToFileURL(join(builtPackage, 'testing', 'index.js')).href);
  const expected = collectedTests().length;
  // A Worker or a web page takes one bundled script, as wrangler or a web bundler would make it.
  await build({
    entryPoints: { worker: join(here, 'workerd.worker.js'), page: join(here, 'browser.page.js') },
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    target: 'es2022',
    outdir: out,
    logLevel: 'warning',
  });

  const nodeCounts = { passed: /^# pass (\d+)/m, failed: /^# fail (\d+)/m };
  const outcomes: Outcome[] = [];
  outcomes.push(
    await runner(
      'node',
      process.version,
      process.execPath,
      ['--test', '--test-reporter=tap', 'runtimes/node.test.js'],
      nodeCounts,
    ),
  );
  outcomes.push(
    await runner(
      'deno',
      await version(binary.deno, ['--version']),
      binary.deno,
      ['test', '--no-config', '--no-lock', '--quiet', 'runtimes/deno.test.js'],
      {
        passed: /(\d+) passed/,
        failed: /(\d+) failed/,
      },
    ),
  );
  // bun:test ends a case after 5 s by default; a loaded CI machine needs longer for the deepest
  // JSON case, and the whole run is bounded by RUNTIME_TIMEOUT_MS anyway.
  const bunArgs = ['test', '--timeout', '60000', './runtimes/bun.test.js'];
  outcomes.push(
    await runner('bun', `bun ${await version(binary.bun, ['--version'])}`, binary.bun, bunArgs, {
      passed: /^\s*(\d+) pass/m,
      failed: /^\s*(\d+) fail/m,
    }),
  );
  outcomes.push(await inWorkerd());
  outcomes.push(await inChromium());

  let ok = true;
  for (const outcome of outcomes) {
    const good = outcome.failed === 0 && outcome.passed === expected;
    ok &&= good;
    console.log(
      `${good ? 'ok  ' : 'FAIL'} ${outcome.runtime.padEnd(9)} ${outcome.version.padEnd(40)} ${outcome.passed}/${expected} passed, ${outcome.failed} failed`,
    );
    if (!good) console.log(outcome.report);
  }
  if (!ok) process.exitCode = 1;
}

await main();
