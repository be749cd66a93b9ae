import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdir, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { RELEASE_DIR, ServerProcesses } from '../../../../scripts/release-process';

// The commands of the docs, run as a reader pastes them, against a fresh release: so that none of
// them drifts from what the service does. Every `sh` block carries a marker on the line before it:
//   <!-- docs-test: run -->             run once
//   <!-- docs-test: run twice -->       run, then run again on the state the first run left
//   <!-- docs-test: setup -->           sets the variables (tokens, ids) of its page's examples: run
//                                       once, and again before each `run with setup` block of it
//   <!-- docs-test: run with setup -->  one request shown with its answer: run after its page's
//                                       setup, it must answer the status and error codes shown
//   <!-- docs-test: skip: <why> -->     cannot run here (Docker, another host, a benchmark)

const REPO_ROOT = fileURLToPath(new URL('../../../..', import.meta.url));
/** The docs: the README and every page under docs/, in the order a reader meets them. */
const DOC_FILES = [
  'README.md',
  ...readdirSync(join(REPO_ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => `docs/${name}`),
];
const MARKER = /^\s*<!-- docs-test: (run twice|run with setup|run|setup|skip: \S.*) -->$/;
/** Longest any one block may take (a CLI call is about half a second; the walk a few). */
const BLOCK_TIMEOUT_MS = 60_000;
/**
 * Longest the pages' blocks may take together, one after another: each is bounded above, and
 * their number grows with the docs (the OAuth clients' pages brought theirs), so on two shared
 * cores a whole run past 300 s says the machine is busy, not that a block hangs.
 */
const ALL_BLOCKS_TIMEOUT_MS = 900_000;

interface Block {
  file: string;
  /** `file:line` of the opening fence. */
  where: string;
  marker: string | undefined;
  script: string;
  /** The block that follows this one at once, with no line between them: the answer it shows. */
  answer: string | undefined;
}

function shBlocks(file: string): Block[] {
  const lines = readFileSync(join(REPO_ROOT, file), 'utf8').split('\n');
  const blocks: Block[] = [];
  for (let i = 0; i < lines.length; i++) {
    const fence = /^(\s*)```(\S*)\s*$/.exec(lines[i]!);
    if (!fence) continue;
    const [, indent, language] = fence;
    let end = i + 1;
    while (end < lines.length && lines[end]!.trim() !== '```') end++;
    if (language === 'sh') {
      const previous = lines.slice(0, i).findLast((line) => line.trim() !== '');
      let answer: string | undefined;
      if (/^\s*```\S*\s*$/.test(lines[end + 1] ?? '')) {
        let answerEnd = end + 2;
        while (answerEnd < lines.length && lines[answerEnd]!.trim() !== '```') answerEnd++;
        answer = lines.slice(end + 2, answerEnd).join('\n');
      }
      blocks.push({
        file,
        answer,
        where: `${file}:${i + 1}`,
        marker: previous === undefined ? undefined : MARKER.exec(previous)?.[1],
        script: lines
          .slice(i + 1, end)
          .map((line) => line.slice(indent!.length))
          .join('\n'),
      });
    }
    i = end;
  }
  return blocks;
}

const BLOCKS = DOC_FILES.flatMap(shBlocks);

interface Run {
  code: number | null;
  output: string;
}

/** Runs `script` with bash as a reader's terminal would, but stopping at the first failing command. */
function bash(script: string, cwd: string, env: Record<string, string>): Promise<Run> {
  return new Promise((resolve) => {
    // Node hands a child sockets, not pipes, for its stdio, and `curl -D /dev/stderr` cannot open
    // a socket: so the script writes into pipes, as it would in a terminal's pipeline.
    const prelude = `exec 1> >(cat) 2> >(cat >&2)\nset -eo pipefail${process.env.DOCS_TEST_TRACE ? ' -x' : ''}\n`;
    const child = spawn('bash', ['-c', prelude + script], {
      cwd,
      env: { PATH: process.env.PATH ?? '', HOME: cwd, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: BLOCK_TIMEOUT_MS,
    });
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => void (output += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => void (output += chunk));
    child.once('close', (code) => resolve({ code, output }));
  });
}

/** What a reader must never see: a Node.js or JavaScript stack trace, or a value that went missing. */
const BROKEN = /^\s+at .+:\d+:\d+\)?$|^\w*Error: |\bundefined\b/m;

function expectClean(run: Run, where: string): void {
  expect(run.code, `${where} exited ${run.code}:\n${run.output}`).toBe(0);
  expect(BROKEN.exec(run.output)?.[0], `${where} printed:\n${run.output}`).toBeUndefined();
}

/**
 * The HTTP status an answer shows: its status line (`HTTP/1.1 201 Created`), a bare status that
 * `curl -w '%{http_code}'` prints, the status of a JSON:API error document, or 200 for a document
 * with `data`.
 */
function statusShown(text: string): string | undefined {
  const line = /^HTTP\/[\d.]+ (\d{3})\b|^(\d{3})\b/m.exec(text);
  if (line) return line[1] ?? line[2];
  const error = /"errors":\s*\[\s*\{\s*"status":\s*"(\d{3})"/.exec(text);
  if (error) return error[1];
  return /^\s*\{\s*"data":/m.test(text) ? '200' : undefined;
}

/** The error codes a text shows, in order (`"code": "email_taken"`). */
function codesShown(text: string): string[] {
  return [...text.matchAll(/"code":\s*"(\w+)"/g)].map((match) => match[1]!);
}

/** A `run with setup` example answers what its page shows: the same status and error codes. */
function expectAnswered(run: Run, block: Block): void {
  const shown = block.answer === undefined ? undefined : statusShown(block.answer);
  const got = statusShown(run.output);
  const explain = `${block.where} answered ${got}, the doc shows ${shown ?? 'a success'}:\n${run.output}`;
  if (shown === undefined) expect(got, explain).toMatch(/^2\d\d$/);
  else expect(got, explain).toBe(shown);
  if (block.answer !== undefined) expect(codesShown(run.output), explain).toEqual(codesShown(block.answer));
}

describe('the commands of the docs', { timeout: ALL_BLOCKS_TIMEOUT_MS }, () => {
  const servers = new ServerProcesses();
  afterAll(() => servers.cleanup());

  it('are each marked to run, run twice or skip with a reason, so a new block cannot slip in untested', () => {
    expect(BLOCKS.filter((block) => block.marker === undefined).map((block) => block.where)).toEqual([]);
    expect(BLOCKS.some((block) => block.marker === 'run twice')).toBe(true);
    // An example needs its page's setup, before it on the page.
    const orphans = BLOCKS.filter(
      (block, index) =>
        block.marker === 'run with setup' &&
        !BLOCKS.slice(0, index).some((each) => each.marker === 'setup' && each.file === block.file),
    );
    expect(orphans.map((block) => block.where)).toEqual([]);
  });

  it('that cannot run here still parse as bash (no broken quoting or continuation)', async () => {
    const broken: string[] = [];
    for (const block of BLOCKS.filter((each) => each.marker?.startsWith('skip:'))) {
      const check = await new Promise<string>((resolve) => {
        const child = spawn('bash', ['-n'], { stdio: ['pipe', 'ignore', 'pipe'] });
        let errors = '';
        child.stderr.setEncoding('utf8').on('data', (chunk: string) => void (errors += chunk));
        child.once('close', (code) => resolve(code === 0 ? '' : errors));
        child.stdin.end(block.script);
      });
      if (check !== '') broken.push(`${block.where}: ${check}`);
    }
    expect(broken).toEqual([]);
  });

  it('run as pasted, in the working directory of a fresh release on SQLite: exit 0, no stack trace', async () => {
    // A working directory as the docs assume one: the release beside the service's data/.
    const dir = await servers.tempDir();
    await symlink(RELEASE_DIR, join(dir, 'release'));
    await mkdir(join(dir, 'data'), { mode: 0o700 });
    // The pages' examples send more mail from one address within a minute than a reader pasting
    // them would (sign-up, email change, recovery, resend): the per-address limit is not under test.
    // Impersonation is off by default; its example needs it on.
    const env = {
      ADMIN_KEY_PATH: join(dir, 'data', 'admin.key'),
      BCRYPT_COST: '4',
      MAIL_REQUESTS_PER_MINUTE: '100',
      IMPERSONATION: 'on',
    };
    const server = await servers.start(env, { cwd: dir });
    const shell = { ...env, PORT: String(server.port), LOG_LEVEL: 'warn' };

    /** Each page's setup, run again before each of its examples so that every one starts afresh. */
    const setups = new Map<string, string>();
    for (const block of BLOCKS.filter((each) => each.marker !== undefined && !each.marker.startsWith('skip:'))) {
      const { where } = block;
      if (block.marker === 'setup') setups.set(block.file, block.script);
      if (block.marker === 'run with setup') {
        const run = await bash(`${setups.get(block.file)}\n${block.script}`, dir, shell);
        expectClean(run, where);
        expectAnswered(run, block);
      } else if (block.marker === 'run twice') {
        // A first run stopped before its last steps (Ctrl-C, half a paste) leaves what it made.
        const steps = block.script.split(/^# 9\. /m);
        if (steps.length > 1) expectClean(await bash(steps[0]!, dir, shell), `${where} (up to step 9)`);
        const first = await bash(block.script, dir, shell);
        expectClean(first, `${where} (first run)`);
        if (steps.length > 1) expect(first.output, 'the walk meets the user it made before').toContain('409');
        expectClean(await bash(block.script, dir, shell), `${where} (second run)`);
      } else {
        expectClean(await bash(block.script, dir, shell), where);
      }
    }
    expect(server.running, server.describe()).toBe(true);
  });
});
