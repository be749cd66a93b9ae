import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { bundleDomain } from '../tools/bundle.ts';

const src = join(fileURLToPath(new URL('.', import.meta.url)), '..', 'src');

// The domain runs in every runtime only while nothing runtime-specific enters it.
describe('the domain is runtime-neutral', () => {
  it.each(['index.ts', 'testing/index.ts'])(
    '%s and everything it imports name no package and no node: module',
    async (entry) => {
      expect((await bundleDomain(join(src, entry))).bareImports).toEqual([]);
    },
  );

  it('the check catches a node: module, a driver or a framework entering the domain', async () => {
    const contents =
      "export * from './index.ts';\nimport 'node:crypto';\nimport 'better-sqlite3';\nimport { Hono } from 'hono';\nexport { Hono };";
    const { bareImports } = await bundleDomain({ contents, resolveDir: src, sourcefile: 'tainted.ts', loader: 'ts' });
    expect(bareImports).toEqual(['better-sqlite3', 'hono', 'node:crypto']);
  });
});
