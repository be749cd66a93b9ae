import { setFlagsFromString } from 'node:v8';

/**
 * V8 favours memory over speed: under load it otherwise grows the young generation to 32 MiB and
 * lets the old one fill with garbage several times what is live, and keeps both after the load
 * (the server held about 210 MiB after the benchmark, 145 with this). Most of V8's heap settings
 * are read once as the process starts, but this one is consulted as the heap grows, so it takes
 * effect from the first module of the bundle, without a flag on the node command line. An
 * operator's own choice there (or in NODE_OPTIONS) is left alone.
 */
const FLAG = 'optimize-for-size';
if (![...process.execArgv, process.env.NODE_OPTIONS ?? ''].some((arg) => arg.includes(FLAG))) {
  setFlagsFromString(`--${FLAG}`);
}
