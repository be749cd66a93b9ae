import type { AuthMethod } from '@uas/domain';

/**
 * A session's `amr` as both databases store it: the methods comma-joined in one text column
 * (`'pwd'` for the rows from before the column), read back as the list.
 */
export const authMethodsColumn = {
  dataType: () => 'text',
  toDriver: (methods: readonly AuthMethod[]): string => methods.join(','),
  fromDriver: (text: string): readonly AuthMethod[] => (text === '' ? [] : (text.split(',') as AuthMethod[])),
} as const;
