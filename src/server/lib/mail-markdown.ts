import { Marked, type Token, type Tokens } from 'marked';

// Organisers write announcement bodies in Markdown (the portal renders it with marked and
// DOMPurify). An e-mail carries the same text rendered twice: an HTML part built by marked with
// an allow-list by construction (raw HTML and images are shown as text, links are http(s) or
// mailto only, everything else is escaped), and a plain-text part a person reads without markup
// (paragraphs, "- " bullets, "1." numbers, "text (address)" links; no **, _, # or backticks).

const SAFE_LINK = /^(?:https?:\/\/|mailto:)/i;

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** Raw HTML's words without its markup (scripts and styles go whole), as DOMPurify leaves them. */
function withoutTags(html: string): string {
  return html.replace(/<(script|style)\b[\s\S]*?<\/\1\s*>/gi, '').replace(/<[^>]*>/g, '');
}

const mailMarked: Marked = new Marked({
  gfm: true,
  breaks: true,
  renderer: {
    // A tag written in the text is dropped; the words of a raw HTML block are rendered as Markdown.
    html: (token: Tokens.HTML | Tokens.Tag) => ('block' in token && token.block ? mailMarked.parse(withoutTags(token.text), { async: false }) : ''),
    image: ({ text }: Tokens.Image) => escapeHtml(text),
    link(this: { parser: { parseInline(tokens: Token[]): string } }, { href, title, tokens }: Tokens.Link) {
      const inner = this.parser.parseInline(tokens);
      if (!SAFE_LINK.test(href.trim())) return inner;
      return `<a href="${escapeHtml(href.trim())}"${title ? ` title="${escapeHtml(title)}"` : ''}>${inner}</a>`;
    },
  },
});

/** Markdown → HTML safe to send in an e-mail (no script, style, handler, image or unsafe link can come through). */
export function markdownToMailHtml(markdown: string): string {
  return mailMarked.parse(markdown, { async: false }).trim();
}

function inlinePlain(tokens: Token[] | undefined): string {
  let out = '';
  for (const token of tokens ?? []) {
    switch (token.type) {
      case 'link': {
        const text = inlinePlain(token.tokens);
        if (!SAFE_LINK.test(token.href.trim())) out += text;
        else out += text && text !== token.href && `mailto:${text}` !== token.href ? `${text} (${token.href})` : token.href;
        break;
      }
      case 'image':
        out += token.text;
        break;
      case 'br':
        out += '\n';
        break;
      case 'html':
        break;
      case 'escape':
        out += token.raw.slice(1);
        break;
      case 'codespan':
        out += token.text;
        break;
      default:
        out += 'tokens' in token && Array.isArray(token.tokens) ? inlinePlain(token.tokens) : 'text' in token ? String(token.text) : '';
    }
  }
  return out;
}

function blocksPlain(tokens: Token[], indent = ''): string[] {
  const blocks: string[] = [];
  for (const token of tokens) {
    switch (token.type) {
      case 'space':
      case 'hr':
        break;
      case 'heading':
      case 'paragraph':
        blocks.push(
          indent +
            inlinePlain(token.tokens)
              .replace(/[ \t]{2,}/g, ' ')
              .trim()
              .replace(/\n/g, `\n${indent}`),
        );
        break;
      case 'text':
        blocks.push(indent + (token.tokens ? inlinePlain(token.tokens) : token.text));
        break;
      case 'code':
        blocks.push(token.text.replace(/^/gm, indent));
        break;
      case 'blockquote':
        blocks.push(...blocksPlain(token.tokens ?? [], indent));
        break;
      case 'list': {
        const list = token as Tokens.List;
        const start = typeof list.start === 'number' ? list.start : 1;
        const lines = list.items.map((item, index) => {
          const marker = list.ordered ? `${start + index}. ` : '- ';
          const [first = '', ...rest] = blocksPlain(item.tokens, `${indent}  `).map((block) => block.slice(indent.length + 2));
          return `${indent}${marker}${[first, ...rest.map((block) => `${indent}  ${block}`)].join('\n')}`;
        });
        blocks.push(lines.join('\n'));
        break;
      }
      case 'table': {
        const table = token as Tokens.Table;
        const row = (cells: Tokens.TableCell[]) => indent + cells.map((cell) => inlinePlain(cell.tokens)).join(' | ');
        blocks.push([row(table.header), ...table.rows.map(row)].join('\n'));
        break;
      }
      case 'html':
        blocks.push(...blocksPlain(mailMarked.lexer(withoutTags(token.text)), indent));
        break;
      default:
        if ('text' in token) blocks.push(indent + String(token.text));
    }
  }
  return blocks.filter((block) => block.trim() !== '');
}

/** Markdown → plain text a person reads as is (the e-mail's text part). */
export function markdownToMailText(markdown: string): string {
  return blocksPlain(mailMarked.lexer(markdown))
    .map((block) => block.replace(/[ \t]+$/gm, ''))
    .join('\n\n');
}

/**
 * A message's HTML part from its plain-text template: `text` is the template rendered with
 * `marker` where the rendered Markdown goes; the rest is escaped, paragraphs kept.
 */
export function mailHtml(text: string, marker: string, bodyHtml: string): string {
  const paragraphs = text.split(/\n{2,}/).map((paragraph) => (paragraph.trim() === marker ? bodyHtml : `<p>${escapeHtml(paragraph).replace(/\n/g, '<br>')}</p>`));
  return `<!doctype html><html><body>${paragraphs.join('\n')}</body></html>`;
}

/** Stands where the rendered body goes in a template rendered for the HTML part. */
export const MAIL_BODY_MARKER = '[[mail-body]]';
