/**
 * tsc rewrites the `.ts` extension of relative imports in the JavaScript it emits but not in the
 * declarations, where some type checkers (Deno's) resolve `./x.ts` literally and find nothing.
 * This gives the `.d.ts` files the `.js` specifiers of their JavaScript twins, as packages ship them.
 */
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const dist = join(fileURLToPath(new URL('.', import.meta.url)), '..', 'dist');
const RELATIVE_TS = /((?:from|import)\s*\(?\s*['"])(\.{1,2}\/[^'"]+)\.ts(['"])/g;

for (const entry of await readdir(dist, { recursive: true, withFileTypes: true })) {
  if (!entry.isFile() || !entry.name.endsWith('.d.ts')) continue;
  const file = join(entry.parentPath, entry.name);
  const text = await readFile(file, 'utf8');
  const rewritten = text.replace(RELATIVE_TS, '$1$2.js$3');
  if (rewritten !== text) await writeFile(file, rewritten);
}
