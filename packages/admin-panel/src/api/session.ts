import { AdminSession } from '@uas/client';

/**
 * The admin's session in the panel. The access token lives only in the session object's memory;
 * the refresh token lives only in the HttpOnly cookie the server sets, and is never read here.
 * @param onEnded called when the session can no longer be refreshed.
 */
export const createSession = (onEnded: () => void): AdminSession =>
  new AdminSession({ refreshToken: 'cookie', onEnded, exclusive: withRefreshLock });

/** Serialises refreshes across tabs of this origin where the Web Locks API exists. */
function withRefreshLock<T>(task: () => Promise<T>): Promise<T> {
  const locks = typeof navigator === 'undefined' ? undefined : navigator.locks;
  // The DOM typings wrap the callback's promise once more than the runtime does.
  return locks ? (locks.request('admin-session-refresh', task) as Promise<unknown> as Promise<T>) : task();
}
