/**
 * The workspace's boundary rules, checked by `pnpm boundaries` (part of `pnpm test`).
 * Paths are the resolved files, so `@uas/*` imports count as imports of the package's sources.
 */
const TEST_CODE = '(^|/)(test|testing|runtimes)/|[.](test|contract)[.]ts$';

/** The domain's folders from the bottom up: a folder imports only from the folders before it. */
const DOMAIN_LAYERS = [['shared'], ['users', 'tokens', 'throttling'], ['admins', 'transfer'], ['sessions']];

const upwardImports = DOMAIN_LAYERS.slice(0, -1).map((layer, index) => ({
  name: 'domain-imports-point-down',
  comment: `The domain's ${layer.join(', ')} folders import nothing from the folders above them.`,
  severity: 'error',
  from: { path: `^packages/domain/src/(${layer.join('|')})/` },
  to: {
    path: `^packages/domain/src/(${DOMAIN_LAYERS.slice(index + 1)
      .flat()
      .join('|')})/`,
  },
}));

module.exports = {
  forbidden: [
    {
      name: 'no-cycles',
      comment: 'A cycle makes the order of module evaluation matter; break it with a smaller module.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'domain-is-pure',
      comment: 'The domain runs in every runtime: no framework, driver or Node module.',
      severity: 'error',
      from: { path: '^packages/domain/src/', pathNot: '[.]test[.]ts$' },
      to: { pathNot: '^packages/domain/src/' },
    },
    {
      name: 'adapters-are-independent',
      comment: 'An adapter depends on the domain, never on another adapter; the server composes them.',
      severity: 'error',
      from: { path: '^packages/(adapters-[^/]+|admin-panel)/' },
      to: { path: '^packages/(adapters-[^/]+|admin-panel)/', pathNot: '^packages/$1/' },
    },
    {
      name: 'no-test-code-in-production',
      comment: 'Production, scripts and the benchmark import no test folder.',
      severity: 'error',
      from: { path: '^(packages|apps)/[^/]+/src/|^bench/|^scripts/', pathNot: TEST_CODE },
      to: { path: TEST_CODE },
    },
    ...upwardImports,
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(node_modules|dist|release)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['source', 'import', 'node', 'default'],
      extensions: ['.ts', '.js', '.mjs'],
    },
    combinedDependencies: false,
  },
};
