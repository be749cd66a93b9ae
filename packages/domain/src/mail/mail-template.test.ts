import { describe, expect, it } from '../testing/test-api.ts';
import { DEFAULT_MAIL_TEMPLATES, renderMail, unknownPlaceholders } from './mail-template.ts';

describe('renderMail', () => {
  const template = { subject: 'Hi {{name}}', text: 'Go to {{ link }}', html: '<a href="{{link}}">{{name}}</a>' };

  it('fills the text as given and escapes every value in the HTML', () => {
    const values = { name: '<b>Ann & "Bo"</b>', link: "https://example.com/?a=1&b='2'" };
    expect(renderMail(template, values)).toEqual({
      subject: 'Hi <b>Ann & "Bo"</b>',
      text: "Go to https://example.com/?a=1&b='2'",
      html: '<a href="https://example.com/?a=1&amp;b=&#39;2&#39;">&lt;b&gt;Ann &amp; &quot;Bo&quot;&lt;/b&gt;</a>',
    });
  });

  it('keeps the subject on one line whatever a value holds', () => {
    expect(renderMail(template, { name: 'x\r\nBcc: victim@example.com', link: '' }).subject).toBe(
      'Hi x Bcc: victim@example.com',
    );
  });

  it('refuses a placeholder that has no value', () => {
    let thrown: unknown;
    try {
      renderMail(template, { name: 'Ann' });
    } catch (error) {
      thrown = error;
    }
    expect((thrown as Error).message).toMatch('{{link}}');
  });

  it('names the placeholders a kind has no value for', () => {
    expect(unknownPlaceholders('test', 'To {{recipient}} via {{link}} and {{ token }}')).toEqual(['link', 'token']);
    for (const part of Object.values(DEFAULT_MAIL_TEMPLATES.test))
      expect(unknownPlaceholders('test', part)).toEqual([]);
  });
});
