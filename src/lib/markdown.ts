import DOMPurify from 'dompurify';
import { marked } from 'marked';

// Organisers write bodies in Markdown. The browser renders them with marked and
// sanitises the HTML with DOMPurify (the same function serves the organiser's preview): raw HTML
// never executes — no scripts, iframes, event handlers, styles, forms — and links are http(s) or
// mailto only and open in a new tab.

const ALLOWED_TAGS = [
  'p',
  'br',
  'hr',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'strong',
  'em',
  'del',
  'code',
  'pre',
  'blockquote',
  'ul',
  'ol',
  'li',
  'a',
  'table',
  'thead',
  'tbody',
  'tr',
  'th',
  'td',
];
const SAFE_LINK = /^(?:https?:\/\/|mailto:)/i;

let purifier: ReturnType<typeof DOMPurify> | null = null;

function getPurifier() {
  if (purifier) return purifier;
  purifier = DOMPurify(window);
  purifier.addHook('afterSanitizeAttributes', (node) => {
    if (node.nodeName !== 'A') return;
    const element = node as Element;
    const href = element.getAttribute('href')?.trim() ?? '';
    if (!SAFE_LINK.test(href)) {
      element.removeAttribute('href');
      return;
    }
    element.setAttribute('target', '_blank');
    element.setAttribute('rel', 'noopener noreferrer');
  });
  return purifier;
}

/** Markdown → sanitised HTML, safe to put into the page. */
export function renderMarkdown(markdown: string): string {
  const html = marked.parse(markdown, { async: false, gfm: true, breaks: true });
  return getPurifier().sanitize(html, { ALLOWED_TAGS, ALLOWED_ATTR: ['href', 'target', 'rel'], ALLOW_DATA_ATTR: false });
}
