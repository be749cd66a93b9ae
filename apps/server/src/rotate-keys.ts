import { runOperatorProgram } from './cli/program';

/**
 * `pnpm rotate-keys [--now]`, and the release's rotate-keys.mjs: `uas keys rotate` under its old
 * name. The new key is published at once and signs once every cached JWKS lists it (with
 * `--now`, at once); older keys verify until their tokens expire.
 */
runOperatorProgram(['keys', 'rotate', ...process.argv.slice(2)]).then((code) => {
  process.exitCode = code;
});
