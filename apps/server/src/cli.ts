import { runOperatorProgram } from './cli/program';

/** `pnpm uas <command>`: the operator CLI, an entry of its own so a release can ship it as a `bin`. */
runOperatorProgram(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
