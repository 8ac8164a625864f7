import { describe, expect, it } from 'vitest';
import { screenPathOf, withModulePreloads } from './route-preloads';

const INDEX = `<!doctype html>
<html lang="en">
  <head>
    <script type="module" crossorigin src="/assets/index-abc.js"></script>
  </head>
  <body><div id="root"></div></body>
</html>`;

describe('route preloads', () => {
  it('finds the screen path of a requested URL', () => {
    expect(screenPathOf('/orderForms?form=s01')).toBe('/orderForms');
    expect(screenPathOf('/dashboard/')).toBe('/dashboard');
    expect(screenPathOf('/myParticipation/exhibitorBadges#top')).toBe('/myParticipation/exhibitorBadges');
    expect(screenPathOf('/')).toBe('/home');
    expect(screenPathOf('/?token=abc')).toBe('/home');
  });

  it('names each module in the head, after the entry', () => {
    const html = withModulePreloads(INDEX, ['/assets/SignedInFrame-x1.js', '/assets/HomePage-y2.js']);
    expect(html.indexOf('href="/assets/SignedInFrame-x1.js"')).toBeGreaterThan(html.indexOf('index-abc.js'));
    expect(html.match(/<link rel="modulepreload" crossorigin href="[^"]+">/g)).toEqual([
      '<link rel="modulepreload" crossorigin href="/assets/SignedInFrame-x1.js">',
      '<link rel="modulepreload" crossorigin href="/assets/HomePage-y2.js">',
    ]);
    expect(html.indexOf('</head>')).toBeGreaterThan(html.indexOf('HomePage-y2.js'));
  });

  it('leaves the page as it is without modules, and never writes a URL that could break out of the attribute', () => {
    expect(withModulePreloads(INDEX, [])).toBe(INDEX);
    expect(withModulePreloads(INDEX, ['/assets/a.js"><script>alert(1)</script>'])).toBe(INDEX);
    expect(withModulePreloads(INDEX, ['https://elsewhere.example/x.js'])).toBe(INDEX);
  });
});
