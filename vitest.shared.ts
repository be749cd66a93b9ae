/**
 * Workspace packages import `@uas/domain` from its TypeScript source (the `source` export
 * condition) so a change there needs no build; the rest of each list is Vite's default.
 */
export const domainFromSource = {
  resolve: { conditions: ['source', 'module', 'browser', 'development|production'] },
  ssr: { resolve: { conditions: ['source', 'module', 'node', 'development|production'] } },
};
