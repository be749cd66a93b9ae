import { describeDatabaseLocation, type DatabaseLocation } from '@uas/adapters-persistence';

/**
 * A database that cannot be opened stops the start, or an operator command, with a message saying
 * where it was looked for and what to change.
 */
export const cannotOpenDatabase =
  (location: DatabaseLocation) =>
  (error: unknown): never => {
    // A database that is unreachable says so in words for clients; its cause names the driver's code.
    const { message = String(error), cause } = (error ?? {}) as { message?: string; cause?: unknown };
    const because = typeof cause === 'string' ? ` ${cause}` : '';
    throw new Error(
      `Cannot open the database (${describeDatabaseLocation(location)}): ${message}${because}${databaseHint(error)}${otherNodeHint(message)}`,
    );
  };

/** What the operator can do, by the driver's code, about a PostgreSQL server that refuses the start. */
const DATABASE_HINTS: Record<string, string> = {
  '3D000':
    'That database does not exist on the server: create it (`createdb <name>`, or CREATE DATABASE <name>), or correct its name in DATABASE_URL.',
  '28P01': 'The server refused the user name or password in DATABASE_URL: correct them there.',
  ECONNREFUSED:
    'Nothing accepts connections at that host and port: start PostgreSQL there, or correct the host and port in DATABASE_URL.',
  ENOTFOUND: 'The host name in DATABASE_URL cannot be resolved: correct it there.',
  EAI_AGAIN: 'The host name in DATABASE_URL cannot be resolved now (DNS did not answer): check it, and the DNS.',
};

/** The driver's code travels as a persistence error's `driverCode`, or as the error's own `code`. */
const databaseHint = (error: unknown): string => {
  const { driverCode, code } = (error ?? {}) as { driverCode?: unknown; code?: unknown };
  const hint = DATABASE_HINTS[String(driverCode ?? code)];
  return hint ? `\n${hint}` : '';
};

/**
 * Node.js 20's SQLite driver is compiled for one Node.js version, and only a release built with
 * Node.js 20 ships it: a release started on another Node.js than the one it was built for may
 * find its driver missing or unloadable. Says what builds the right one.
 */
const otherNodeHint = (message: string): string =>
  /ERR_DLOPEN_FAILED|NODE_MODULE_VERSION|MODULE_NOT_FOUND/.test(message)
    ? `\nThis release has no SQLite driver that loads in this Node.js (${process.version}, module version ${process.versions.modules}): it was built with another Node.js version. ` +
      'Build the release with the Node.js that runs it: `npx -y pnpm@10 install && npx -y pnpm@10 build` in the repository; ' +
      'in a release folder on its own, `rm -rf node_modules && npm install` fetches and builds it.'
    : '';
