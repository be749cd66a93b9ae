/**
 * The Node.js lines the OpenID engine (oidc-provider 9) supports: LTS releases from 22 ("Jod")
 * on. On any other it prints, as it loads, "oidc-provider WARNING: Unsupported runtime"; the
 * service then says in its own log what that means. It still runs there (Node.js 20 is proven by
 * the release's smoke run), without the engine's authors behind it.
 */
const OLDEST_SUPPORTED_LTS = 'Jod';

/** The warning to log at start on such a Node.js, or null on a supported one. */
export function unsupportedNodeWarning(
  release: { lts?: string } = process.release,
  version = process.version,
): string | null {
  const lts = release.lts;
  if (lts !== undefined && lts.localeCompare(OLDEST_SUPPORTED_LTS, 'en') >= 0) return null;
  return `Node.js ${version} is not a Node.js the OpenID provider engine supports (it printed "Unsupported runtime" above): run the service on Node.js 24 LTS (or 22 LTS). It works here, but gets no security fixes from Node.js${lts === 'Iron' ? ' (Node.js 20 reached its end of life on 2026-04-30)' : ''}.`;
}
