/**
 * What the panel says, in the admin's words, for the API's errors whose own text names a rule
 * rather than what to do about it. Every other error is shown with the API's detail or title.
 */
const WORDS: Readonly<Record<string, string>> = {
  last_owner:
    'This is the last owner: an owner must remain. Make another admin an owner first, then change or remove this one.',
  impersonation_disabled:
    'Impersonation is turned off on this service. An operator can turn it on with IMPERSONATION=on.',
};

export const wordsFor = (code: string | undefined): string | undefined => (code ? WORDS[code] : undefined);
