import { describe, expect, it } from 'vitest';
import { linkParts } from '../../src/state/mail-links';

describe('linkParts', () => {
  it('makes http and https URLs links and keeps the rest as text, sentence punctuation included', () => {
    expect(linkParts('Open https://accounts.example.com/verify?token=a1&x=2. Or http://x.test/a, then stop')).toEqual([
      { text: 'Open ' },
      { href: 'https://accounts.example.com/verify?token=a1&x=2' },
      { text: '. Or ' },
      { href: 'http://x.test/a' },
      { text: ', then stop' },
    ]);
  });

  it('never makes a link of another scheme, or of something that does not parse', () => {
    for (const text of ['javascript://%0aalert(1)', 'data://text/html,<script>', 'file:///etc/passwd', 'http://']) {
      expect(linkParts(`see ${text}`)).toEqual([{ text: `see ${text}` }]);
    }
  });

  it('answers one plain part for text without links, and none for no text', () => {
    expect(linkParts('Hello <b>Ann</b>')).toEqual([{ text: 'Hello <b>Ann</b>' }]);
    expect(linkParts('')).toEqual([]);
  });
});
