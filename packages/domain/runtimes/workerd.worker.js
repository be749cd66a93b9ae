// workerd entry: answers any request with the outcome of every built suite.
import { runCollected } from './run-collected.js';
import './dist/all-tests.js';

export default {
  async fetch() {
    return Response.json(await runCollected());
  },
};
