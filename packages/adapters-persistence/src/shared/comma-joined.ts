/**
 * A short list of names as both databases store it: comma-joined in one text column (a session's
 * `amr`, a challenge's kinds, a passkey's transports), read back as the list; '' is the empty list.
 */
export const commaJoined = <T extends string>() =>
  ({
    dataType: () => 'text',
    toDriver: (names: readonly T[]): string => names.join(','),
    fromDriver: (text: string): readonly T[] => (text === '' ? [] : (text.split(',') as T[])),
  }) as const;
