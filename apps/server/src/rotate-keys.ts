import { runOperatorProgram } from './cli/program';

/**
 * `pnpm rotate-keys`, and the release's rotate-keys.mjs: `uas keys rotate` under its old name.
 * New tokens are signed with a new key from now on; older ones verify until they expire.
 */
runOperatorProgram(['keys', 'rotate']).then((code) => {
  process.exitCode = code;
});
