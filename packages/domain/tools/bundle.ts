import { build, type StdinOptions } from 'esbuild';

export interface DomainBundle {
  /** The bundled ESM, as a team's bundler would ship it. */
  code: string;
  /** Every import that is not a file of the domain: a `node:` module, a driver, a framework... */
  bareImports: string[];
}

/**
 * Bundles domain code for no particular runtime (esbuild's neutral platform). The domain has no
 * dependencies, so any bare import left in it ties the domain to a runtime or a library.
 */
export async function bundleDomain(
  entry: string | StdinOptions,
  options: { minify?: boolean } = {},
): Promise<DomainBundle> {
  const bareImports = new Set<string>();
  const result = await build({
    ...(typeof entry === 'string' ? { entryPoints: [entry] } : { stdin: entry }),
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'neutral',
    target: 'es2022',
    minify: options.minify ?? false,
    logLevel: 'silent',
    plugins: [
      {
        name: 'bare-imports',
        setup(plugin) {
          plugin.onResolve({ filter: /^[^./]/ }, ({ path }) => {
            bareImports.add(path);
            return { path, external: true };
          });
        },
      },
    ],
  });
  return { code: result.outputFiles[0]?.text ?? '', bareImports: [...bareImports].sort() };
}
