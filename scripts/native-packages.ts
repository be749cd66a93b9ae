import { cp, readFile, realpath } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join, sep } from 'node:path';

/** Needed only while npm installs a package (fetching a prebuilt binary), never at run time. */
const INSTALL_TIME_ONLY = new Set(['prebuild-install']);

/** Sources, build intermediates and docs of a compiled package: not needed to run it. */
const UNNEEDED =
  /(^|[\\/])(deps|src|obj|obj\.target|test|docs?)([\\/]|$)|\.(a|c|cc|cpp|h|hpp|gyp|gypi|mk|md|d\.ts|map)$|[\\/]test_[^\\/]*$/;

/**
 * A prebuilt binary a package ships for every platform (`prebuilds/<platform>-<arch>.node`) that
 * is not this machine's: eight of better-sqlite3 13's nine megabytes.
 */
const otherPlatformsPrebuild = (path: string): boolean => {
  const target = /[\\/]prebuilds[\\/]([^\\/]+)\.node$/.exec(path)?.[1];
  return target !== undefined && !(target.startsWith(process.platform) && target.endsWith(`-${process.arch}`));
};

interface Manifest {
  name: string;
  version: string;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
}

/** The installed folder of `name` as seen from `from` (a folder with a node_modules), or null. */
async function installedFolder(name: string, from: string): Promise<string | null> {
  const folder = join(from, 'node_modules', name);
  return existsSync(join(folder, 'package.json')) ? realpath(folder) : null;
}

/** What npm installs `name` from: its version, or for an alias (`better-sqlite3-node20`) `npm:<package>@<version>`. */
const specOf = (name: string, manifest: Manifest) =>
  manifest.name === name ? manifest.version : `npm:${manifest.name}@${manifest.version}`;

/** The spec of `name` as installed in the first of `workspaceFolders` that has it. */
export async function installedSpec(name: string, workspaceFolders: readonly string[]): Promise<string> {
  for (const from of workspaceFolders) {
    const folder = await installedFolder(name, from);
    if (folder !== null)
      return specOf(name, JSON.parse(await readFile(join(folder, 'package.json'), 'utf8')) as Manifest);
  }
  throw new Error(`${name} is not installed; run the install first.`);
}

/**
 * Copies `names` and what they need at run time (their dependencies, and the optional ones that
 * are installed: the binary for this platform) from the workspace into `target`, flat, as npm
 * would lay them out. Returns the exact versions of `names`, for the release's package.json.
 */
export async function copyNativePackages(
  names: readonly string[],
  workspaceFolders: readonly string[],
  target: string,
): Promise<Record<string, string>> {
  const copied = new Map<string, string>();
  const copy = async (name: string, searchFrom: readonly string[], optional: boolean): Promise<void> => {
    if (copied.has(name) || INSTALL_TIME_ONLY.has(name)) return;
    let folder: string | null = null;
    for (const from of searchFrom) folder ??= await installedFolder(name, from);
    if (folder === null) {
      if (optional) return;
      throw new Error(`${name} is not installed; run the install first.`);
    }
    const manifest = JSON.parse(await readFile(join(folder, 'package.json'), 'utf8')) as Manifest;
    copied.set(name, specOf(name, manifest));
    await cp(folder, join(target, name), {
      recursive: true,
      dereference: true,
      filter: (path) =>
        !UNNEEDED.test(path.slice(folder.length)) &&
        !path.slice(folder.length).includes(`${sep}node_modules`) &&
        !otherPlatformsPrebuild(path),
    });
    // pnpm keeps a package's own dependencies beside it, in the node_modules that holds it.
    const siblings = [join(folder, ...name.split('/').map(() => '..'), '..')];
    for (const dependency of Object.keys(manifest.dependencies ?? {})) await copy(dependency, siblings, false);
    for (const dependency of Object.keys(manifest.optionalDependencies ?? {})) await copy(dependency, siblings, true);
  };
  for (const name of names) await copy(name, workspaceFolders, false);
  return Object.fromEntries(names.map((name) => [name, copied.get(name)!]));
}
