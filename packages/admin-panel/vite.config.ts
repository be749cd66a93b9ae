import { defineConfig } from 'vite';

// Served by the API server under /admin/; built files go to dist/ (never committed).
export default defineConfig({
  base: '/admin/',
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    // Every browser the panel supports has modulepreload; the polyfill would only add bytes.
    modulePreload: { polyfill: false },
  },
});
