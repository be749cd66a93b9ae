/**
 * `pnpm build`: the release folder (`release/`) that production runs with plain `node`, no tsx,
 * no workspace. It holds one bundled ES module per entry point, the assets those modules find
 * beside them (migrations, the built admin panel), and `node_modules` with only the native
 * packages, which cannot be bundled. Its package.json names just those, so `npm install` in a
 * copy of the folder on another platform fetches the right binaries.
 */
import { cp, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { build, type Plugin } from 'esbuild';
import { copyNativePackages, installedSpec } from './native-packages';
import {
  ensureNativeModules,
  NATIVE,
  NATIVE_WORKSPACE_FOLDERS,
  OPTIONAL_NATIVE,
  RELEASE_NATIVE,
} from './native-modules';

const ROOT = resolve(import.meta.dirname, '..');
const OUT = join(ROOT, 'release');

/**
 * Every program of the release: `<name>.mjs` in the folder, and a `bin` command when named. A
 * worker thread's module is one too: the source loads it as `loadedAs` (its tsx entry in the
 * workspace), which the release rewrites to the bundle.
 */
const ENTRY_POINTS: { name: string; source: string; bin?: string; loadedAs?: string }[] = [
  { name: 'server', source: 'apps/server/src/main.ts', bin: 'user-account-service' },
  { name: 'rotate-keys', source: 'apps/server/src/rotate-keys.ts' },
  { name: 'uas', source: 'apps/server/src/cli.ts', bin: 'uas' },
  {
    name: 'sqlite-read-worker',
    source: 'packages/adapters-persistence/src/sqlite/sqlite-read-worker.ts',
    loadedAs: 'packages/adapters-persistence/src/sqlite/sqlite-read-worker-entry.mjs',
  },
];

/** Folders the code reads at run time (repository path → path in the release). */
const ASSETS: Record<string, string> = {
  'packages/adapters-persistence/migrations': 'migrations',
  'packages/admin-panel/dist': 'admin-panel',
  'packages/adapters-http/node_modules/swagger-ui-dist': 'api-reference',
};

/**
 * Source files find their assets with `new URL('<relative path>', import.meta.url)`; in one bundle
 * every module shares one `import.meta.url`, so each such URL is rewritten to the asset's place in
 * the release. A URL that leads to no shipped asset fails the build rather than the server.
 */
const assetUrls: Plugin = {
  name: 'asset-urls',
  setup(context) {
    context.onLoad({ filter: /[\\/](packages|apps)[\\/].*\.ts$/ }, async ({ path }) => {
      const source = await readFile(path, 'utf8');
      const contents = source.replace(
        /new URL\((['"])([^'"]+)\1, import\.meta\.url\)/g,
        (_, _quote, target: string) => {
          const inRepository = relative(ROOT, resolve(dirname(path), target))
            .split('\\')
            .join('/');
          const entry = ENTRY_POINTS.find(({ loadedAs }) => loadedAs === inRepository);
          if (entry !== undefined) return `new URL(${JSON.stringify(`./${entry.name}.mjs`)}, import.meta.url)`;
          const asset = Object.keys(ASSETS).find(
            (folder) => inRepository === folder || inRepository.startsWith(`${folder}/`),
          );
          if (asset === undefined)
            throw new Error(`${relative(ROOT, path)} reads ${inRepository}, which the release does not ship.`);
          return `new URL(${JSON.stringify(`./${ASSETS[asset]}${inRepository.slice(asset.length)}`)}, import.meta.url)`;
        },
      );
      return { contents, loader: 'ts' };
    });
  },
};

async function main(): Promise<void> {
  const started = performance.now();
  // The release ships the native binaries as installed: they must be this Node.js's.
  ensureNativeModules();
  // Built beside the old release and swapped in at the end, so a failed build leaves it intact.
  const staging = `${OUT}.staging`;
  await rm(staging, { recursive: true, force: true });
  await mkdir(staging, { recursive: true });

  await build({
    entryPoints: Object.fromEntries(ENTRY_POINTS.map(({ name, source }) => [name, join(ROOT, source)])),
    outdir: staging,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'esm',
    // The workspace's packages are bundled from their TypeScript source, as every tool here reads them.
    conditions: ['source'],
    external: [...NATIVE],
    plugins: [assetUrls],
    // Bundled CommonJS packages call require(); an ES module has none until it is made.
    banner: {
      js: "#!/usr/bin/env node\nimport { createRequire as __createRequire } from 'node:module';\nconst require = __createRequire(import.meta.url);",
    },
    legalComments: 'none',
    // Smaller to parse at every start; names kept, as libraries test constructor names.
    minify: true,
    keepNames: true,
    logLevel: 'warning',
  });

  // Through pnpm's links to the files; without source maps, which are most of a package's megabytes.
  for (const [from, to] of Object.entries(ASSETS)) {
    await cp(join(ROOT, from), join(staging, to), {
      recursive: true,
      dereference: true,
      filter: (source) => !source.endsWith('.map'),
    });
  }
  const versions = await copyNativePackages(RELEASE_NATIVE, NATIVE_WORKSPACE_FOLDERS, join(staging, 'node_modules'));
  const optional: Record<string, string> = {};
  for (const name of OPTIONAL_NATIVE) {
    optional[name] = await installedSpec(name, NATIVE_WORKSPACE_FOLDERS);
    delete versions[name];
  }

  const rootManifest = JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')) as {
    name: string;
    engines: unknown;
  };
  const manifest = {
    name: rootManifest.name,
    private: true,
    type: 'module',
    engines: rootManifest.engines,
    bin: Object.fromEntries(ENTRY_POINTS.flatMap(({ name, bin }) => (bin ? [[bin, `./${name}.mjs`]] : []))),
    scripts: { start: 'node server.mjs' },
    dependencies: versions,
    optionalDependencies: optional,
  };
  await writeFile(join(staging, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);

  await rm(OUT, { recursive: true, force: true });
  await rename(staging, OUT);
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  process.stdout.write(
    `Built ${basename(OUT)}/ in ${seconds} s: ${ENTRY_POINTS.map(({ name }) => `${name}.mjs`).join(', ')}\n`,
  );
}

main().catch((error: unknown) => {
  process.stderr.write(`The release build failed: ${(error as Error)?.message ?? error}\n`);
  process.exit(1);
});
