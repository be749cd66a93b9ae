import { defineConfig } from 'vite';
import { domainFromSource } from '../../vitest.shared.ts';

// Served by the API server under /admin/; built files go to dist/ (never committed).
export default defineConfig({
  base: '/admin/',
  // @uas/app-client (through @uas/client) from its TypeScript source, as the tests take it.
  resolve: domainFromSource.resolve,
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    // Every browser the panel supports has modulepreload; the polyfill would only add bytes.
    modulePreload: { polyfill: false },
  },
});
