import { describe, expect, it } from 'vitest';
import { htmlToText, sanitizeHtml } from './sanitize-html';

/** Parses the sanitised output the way a toast would render it. */
function render(html: string): HTMLElement {
  const host = document.createElement('div');
  host.innerHTML = html;
  return host;
}

describe('E1 sanitizeHtml: server messages shown as HTML', () => {
  it('keeps simple inline formatting and line breaks', () => {
    const out = sanitizeHtml('Saved <b>2</b> <i>items</i>, <strong>check</strong> <em>them</em><br>now <u>please</u>');
    expect(out).toBe('Saved <b>2</b> <i>items</i>, <strong>check</strong> <em>them</em><br>now <u>please</u>');
  });

  it('removes script and style elements with their content', () => {
    const out = sanitizeHtml('Hello<script>alert(1)</script><style>body{display:none}</style> world');
    expect(out).toBe('Hello world');
  });

  it('removes event handlers, style and data attributes', () => {
    const host = render(sanitizeHtml('<b onclick="alert(1)" style="color:red" data-x="1" class="c" id="i">bold</b><img src=x onerror="alert(2)">'));
    const bold = host.querySelector('b')!;
    expect(bold.textContent).toBe('bold');
    expect(bold.getAttributeNames()).toEqual([]);
    expect(host.querySelector('img')).toBeNull();
    expect(host.innerHTML).not.toMatch(/onerror|onclick|alert/);
  });

  it('keeps http, https and mailto links; http(s) links open in a new tab without opener', () => {
    const host = render(
      sanitizeHtml('<a href="https://example.com/help" target="_self" onclick="x()">help</a> <a href="mailto:support@example.com">mail</a> <a href="http://example.com">plain</a>'),
    );
    const links = [...host.querySelectorAll('a')];
    expect(links.map((a) => a.getAttribute('href'))).toEqual(['https://example.com/help', 'mailto:support@example.com', 'http://example.com']);
    expect(links[0]!.getAttribute('target')).toBe('_blank');
    expect(links[0]!.getAttribute('rel')).toBe('noopener noreferrer');
    expect(links[0]!.hasAttribute('onclick')).toBe(false);
    expect(links[1]!.hasAttribute('target')).toBe(false);
  });

  it.each([
    'javascript:alert(1)',
    ' JaVaScRiPt:alert(1)',
    'java\nscript:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    'vbscript:msgbox(1)',
    '/relative/path',
    'ftp://example.com/file',
  ])('drops the href %j but keeps the link text', (href) => {
    const host = render(sanitizeHtml(`<a href="${href.replace(/"/g, '&quot;')}">click</a>`));
    expect(host.textContent).toBe('click');
    expect(host.querySelector('a')?.hasAttribute('href') ?? false).toBe(false);
  });

  it('drops block, form, iframe and svg markup but keeps harmless text', () => {
    const out = sanitizeHtml('<div><p>Para</p></div><form action="https://evil"><input value="x"></form><iframe src="https://evil"></iframe><svg><script>alert(1)</script></svg>');
    expect(out).toBe('Para');
  });

  it('escapes text that only looks like markup', () => {
    expect(sanitizeHtml('a < b & c > d')).toBe('a &lt; b &amp; c &gt; d');
  });

  it('turns nothing into an empty string', () => {
    expect(sanitizeHtml(undefined)).toBe('');
    expect(sanitizeHtml(null)).toBe('');
  });

  it('htmlToText gives the readable text, <br> as a line break, without scripts', () => {
    expect(htmlToText('Line <b>one</b><br>Line two<script>alert(1)</script> &amp; more')).toBe('Line one\nLine two & more');
  });
});
