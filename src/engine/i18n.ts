// A tiny, dependency-free translator over the locale tables, for code that runs outside React
// (the server's messages, e-mails and the generator's checks). The web app uses i18next over
// the very same tables.

export type LocaleTable = { [key: string]: string | LocaleTable };

export function lookup(table: LocaleTable, key: string): string | undefined {
  let node: string | LocaleTable | undefined = table;
  for (const part of key.split('.')) {
    if (!node || typeof node === 'string' || !Object.hasOwn(node, part)) return undefined;
    node = node[part];
  }
  return typeof node === 'string' ? node : undefined;
}

/** Replaces {{name}} placeholders, as i18next does. */
export function interpolate(text: string, params: Record<string, string | number> = {}): string {
  return text.replace(/\{\{\s*(\w+)\s*\}\}/g, (whole, name: string) => (Object.hasOwn(params, name) ? String(params[name]) : whole));
}

export function flattenKeys(table: LocaleTable, prefix = ''): string[] {
  return Object.entries(table).flatMap(([key, value]) => (typeof value === 'string' ? [`${prefix}${key}`] : flattenKeys(value, `${prefix}${key}.`)));
}

export function createTranslator(tables: Record<string, LocaleTable>, fallback = 'en') {
  return (language: string, key: string, params?: Record<string, string | number>): string => {
    const text = lookup(tables[language] ?? {}, key) ?? lookup(tables[fallback] ?? {}, key) ?? key;
    return interpolate(text, params);
  };
}
