// Browser entry: the page exposes the outcome of every built suite to the driver.
import { runCollected } from './run-collected.js';
import './dist/all-tests.js';

globalThis.suiteOutcome = runCollected();
