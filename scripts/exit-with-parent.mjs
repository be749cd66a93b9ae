/**
 * Preloaded into every server process a test or benchmark starts (node --import): when the process
 * that spawned it goes away without stopping it (a crashed or killed worker), its end of our stdin
 * closes and this process ends too, instead of living on holding a port and a database.
 * The handle is unref'd, so it never keeps the server alive and changes nothing else.
 */
process.stdin.on('end', () => process.kill(process.pid, 'SIGKILL'));
process.stdin.resume();
process.stdin.unref?.();
