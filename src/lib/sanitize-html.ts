import DOMPurify, { type DOMPurify as Purifier } from 'dompurify';

// E1: the server may put simple HTML in a message (body code 500). Before a toast renders it, it
// goes through DOMPurify with a short allow-list: a few inline tags, and links whose href is
// http, https or mailto. Scripts, styles, event handlers, javascript:/data: URLs, forms,
// images and everything else are dropped (the text inside dropped formatting tags is kept).

export const ALLOWED_TAGS = ['a', 'b', 'i', 'u', 'em', 'strong', 'br', 'span'] as const;
const ALLOWED_ATTR = ['href'];
/** Only absolute http(s) and mailto links; relative, javascript:, data:, vbscript:… are removed. */
const ALLOWED_URI = /^(?:https?:\/\/|mailto:)/i;

let purifier: Purifier | null | undefined;

/** A private DOMPurify instance, so our hook does not touch other users of the library. */
function getPurifier(): Purifier | null {
  if (purifier !== undefined) return purifier;
  if (typeof window === 'undefined') return (purifier = null);
  const instance = DOMPurify(window);
  if (!instance.isSupported) return (purifier = null);
  instance.addHook('afterSanitizeAttributes', (node) => {
    if (node.nodeName !== 'A') return;
    const element = node as Element;
    const href = element.getAttribute('href');
    if (href && /^https?:/i.test(href.trim())) {
      // A link in a toast must not replace the app, nor give the new page a handle on it.
      element.setAttribute('target', '_blank');
      element.setAttribute('rel', 'noopener noreferrer');
    }
  });
  return (purifier = instance);
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** Sanitised HTML, safe to give to `innerHTML` / `dangerouslySetInnerHTML`. */
export function sanitizeHtml(dirty: unknown): string {
  if (dirty === undefined || dirty === null) return '';
  const text = String(dirty);
  const instance = getPurifier();
  // DOMPurify returns its input unchanged when it has no DOM: escape everything instead.
  if (!instance) return escapeHtml(text);
  return instance.sanitize(text, {
    ALLOWED_TAGS: [...ALLOWED_TAGS],
    ALLOWED_ATTR,
    ALLOWED_URI_REGEXP: ALLOWED_URI,
    ALLOW_DATA_ATTR: false,
    ALLOW_ARIA_ATTR: false,
    ALLOW_UNKNOWN_PROTOCOLS: false,
    RETURN_TRUSTED_TYPE: false,
  });
}

/** The text a user reads in (sanitised) HTML, `<br>` as a line break; for error messages. */
export function htmlToText(html: string): string {
  if (typeof DOMParser === 'undefined') {
    return String(html)
      .replace(/<br\s*\/?>/gi, '\n')
      .replace(/<[^>]*>/g, '')
      .trim();
  }
  const clean = sanitizeHtml(html);
  const doc = new DOMParser().parseFromString(`<body>${clean}</body>`, 'text/html');
  doc.querySelectorAll('br').forEach((br) => br.replaceWith('\n'));
  return (doc.body.textContent ?? '').trim();
}
