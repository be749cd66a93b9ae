/** Prints the size of the built domain as an app would ship it: bundled, minified and gzipped. */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { bundleDomain } from './bundle.ts';

const entry = join(fileURLToPath(new URL('.', import.meta.url)), '..', 'dist', 'index.js');
const { code } = await bundleDomain(entry, { minify: true });
const kB = (bytes: number) => `${(bytes / 1000).toFixed(1)} kB`;
console.log(
  `@uas/domain: ${kB(Buffer.byteLength(code))} minified, ${kB(gzipSync(code, { level: 9 }).length)} minified and gzipped`,
);
