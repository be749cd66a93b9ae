import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';

const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const project = fileURLToPath(new URL('../tsconfig.json', import.meta.url));

it('the examples typecheck against the built .d.ts files, as a NodeNext project that installed the package', async () => {
  const checked = await promisify(execFile)(process.execPath, [tsc, '-p', project, '--listFiles']).catch(
    (error: { stdout: string }) => {
      throw new Error(`tsc refused the examples against the built types:\n${error.stdout}`);
    },
  );
  const domainFiles = checked.stdout.split('\n').filter((file) => file.includes('/packages/domain/'));
  expect(domainFiles.length).toBeGreaterThan(0);
  expect(domainFiles.every((file) => file.includes('/packages/domain/dist/') && file.endsWith('.d.ts'))).toBe(true);
}, 60_000);
