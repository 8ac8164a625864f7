import { describe, expect, it } from 'vitest';
import { renderMarkdown } from './markdown';

describe('Markdown bodies', () => {
  it('renders headings, emphasis, lists and safe links', () => {
    const html = renderMarkdown('## Move-in\n\n**Hall 3** and [the map](https://venue.example/map)\n\n- one\n- two');
    expect(html).toContain('<h2>Move-in</h2>');
    expect(html).toContain('<strong>Hall 3</strong>');
    expect(html).toContain('<a href="https://venue.example/map" target="_blank" rel="noopener noreferrer">the map</a>');
    expect(html).toContain('<li>one</li>');
  });

  it('leaves scripts, iframes, event handlers and javascript: links inert', () => {
    const html = renderMarkdown(
      '<script>alert(1)</script>\n\n<iframe src="https://evil.example"></iframe>\n\n<img src=x onerror="alert(2)">\n\n[click](javascript:alert(3)) <a href="javascript:alert(4)" onclick="alert(5)">x</a>\n\n<p style="color:red" onmouseover="alert(6)">styled</p>',
    );
    expect(html).not.toMatch(/<script|<iframe|<img|onerror|onclick|onmouseover|javascript:|style=/i);
    expect(html).toContain('click');
    expect(html).toContain('styled');
  });
});
