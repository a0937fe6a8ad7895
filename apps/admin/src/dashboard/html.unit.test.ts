import { describe, expect, it } from 'vitest';
import { escapeHtml, html, trustedHtml } from './html.js';

describe('html', () => {
  it('escapes every interpolated string, in text and in attributes', () => {
    const name = `<img src=x onerror="alert('x')">&`;
    expect(html`<p title="${name}">${name}</p>`.value).toBe(
      '<p title="&lt;img src=x onerror=&quot;alert(&#39;x&#39;)&quot;&gt;&amp;">&lt;img src=x onerror=&quot;alert(&#39;x&#39;)&quot;&gt;&amp;</p>',
    );
  });

  it('keeps nested fragments and trusted markup as they are, joins arrays, drops null and booleans', () => {
    const items = ['a<b', 'c'].map((item) => html`<li>${item}</li>`);
    expect(html`<ul>${items}</ul>${null}${undefined}${false}${true}${0}${trustedHtml('<hr>')}`.value).toBe('<ul><li>a&lt;b</li><li>c</li></ul>0<hr>');
  });

  it('escapeHtml leaves ordinary text alone', () => {
    expect(escapeHtml('pk_live_…abcd 100%')).toBe('pk_live_…abcd 100%');
  });
});
