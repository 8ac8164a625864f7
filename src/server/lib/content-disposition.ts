// Content-Disposition with a file name any browser reads back as given (RFC 6266 / RFC 5987):
// `filename*` carries the UTF-8 name, `filename` a plain-ASCII fallback for old clients.

export function contentDisposition(type: 'inline' | 'attachment', name: string): string {
  const encoded = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  const fallback = name.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `${type}; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}
