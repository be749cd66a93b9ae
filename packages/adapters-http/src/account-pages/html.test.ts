import { describe, expect, it } from 'vitest';
import { escapeHtml, html } from './html';

describe('html', () => {
  it('escapes every interpolated string, in text and in attributes', () => {
    const hostile = `"><script>alert('x')</script>&`;
    const markup = html`<p title="${hostile}">${hostile}</p>`.markup;
    expect(markup).toBe(
      '<p title="&quot;&gt;&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;&amp;">&quot;&gt;&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;&amp;</p>',
    );
  });

  it('keeps markup built by html as it is, and leaves out null, undefined and false', () => {
    const item = (text: string) => html`<li>${text}</li>`;
    expect(html`<ul>${[item('a<'), item('b')]}</ul>${null}${undefined}${false}`.markup).toBe(
      '<ul><li>a&lt;</li><li>b</li></ul>',
    );
  });

  it('escapes the five characters that matter and nothing else', () => {
    expect(escapeHtml(`a&b<c>d"e'f é`)).toBe('a&amp;b&lt;c&gt;d&quot;e&#39;f é');
  });
});
