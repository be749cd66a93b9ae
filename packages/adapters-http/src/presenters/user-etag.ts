import type { User } from '@uas/domain';

/**
 * The user's entity tag: its version, as a strong tag. Strong because If-Match compares strongly
 * (RFC 9110, 13.1.1), and a version names exactly one representation of the user.
 */
export const userETag = (user: User): string => `"${user.version}"`;

const STRONG_VERSION_TAG = /^"(\d{1,15})"$/;

/**
 * The versions an If-Match header accepts, for the domain's conditional change: undefined when
 * there is no header or it is `*` (any current user). A weak or foreign tag matches no version,
 * so a header of only such tags makes the change fail as stale.
 */
export function ifMatchVersions(header: string | undefined): number[] | undefined {
  if (header === undefined || header.trim() === '*') return undefined;
  return header
    .split(',')
    .map((tag) => STRONG_VERSION_TAG.exec(tag.trim())?.[1])
    .filter((version): version is string => version !== undefined)
    .map(Number);
}
