/** A run of a message's text: plain, or a link the panel may make clickable. */
export type TextPart = { text: string } | { href: string };

/** Candidate links: a scheme and what follows up to blank space or a character that ends prose. */
const CANDIDATE = /\b[a-z][a-z0-9+.-]*:\/\/[^\s<>"']+/gi;
/** Punctuation that ends a sentence rather than a link. */
const TRAILING = /[.,;:!?)\]]+$/;

/**
 * Splits a message's text into plain runs and links. Only http and https URLs that parse become
 * links; every other scheme (javascript:, data:, file:) stays plain text. Parts are meant to be
 * shown through text nodes and `href` attributes, never as markup.
 */
export function linkParts(text: string): TextPart[] {
  const parts: TextPart[] = [];
  let plain = '';
  let from = 0;
  for (const match of text.matchAll(CANDIDATE)) {
    const candidate = match[0].replace(TRAILING, '');
    const url = URL.canParse(candidate) ? new URL(candidate) : null;
    if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) continue;
    plain += text.slice(from, match.index);
    if (plain) parts.push({ text: plain });
    plain = '';
    parts.push({ href: candidate });
    from = match.index + candidate.length;
  }
  plain += text.slice(from);
  if (plain) parts.push({ text: plain });
  return parts;
}
