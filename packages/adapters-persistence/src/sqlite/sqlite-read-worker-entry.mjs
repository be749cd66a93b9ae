// A worker thread's entry: registers tsx in this thread (Node 20 runs no --import preload in
// workers), then loads the TypeScript worker.
import { register } from 'tsx/esm/api';

register();
await import('./sqlite-read-worker.ts');
