import type { KyselyPlugin, PluginTransformQueryArgs, PluginTransformResultArgs, QueryResult, RootOperationNode, UnknownRow } from 'kysely';

// For speed, caches of database rows (the resolved sessions of the auth hook) must forget
// what a write may have changed. This Kysely plugin sees every statement made through the
// instance it is attached to and tells listeners which tables a writing statement names.

/** Every table a statement names, or null when it writes nothing; 'all' when it cannot tell (raw SQL, DDL). */
export type WrittenTables = ReadonlySet<string> | 'all';
export type WriteListener = (tables: WrittenTables) => void;

const WRITE_KINDS = new Set(['InsertQueryNode', 'UpdateQueryNode', 'DeleteQueryNode', 'MergeQueryNode']);
const WRITE_SQL = /\b(insert|update|delete|merge|truncate|alter|drop|create|copy)\b/gi;
/** A table name as written after INSERT INTO / UPDATE / DELETE FROM / MERGE INTO: optionally quoted, optionally schema-qualified. */
const TARGET = /^\s+(?:only\s+)?((?:"[^"]+"|[a-z_][\w$]*)(?:\s*\.\s*(?:"[^"]+"|[a-z_][\w$]*))?)/i;

/** `"Leads"` → Leads, `public.leads` → leads: the table's name as Kysely's TableNode holds it. */
function tableName(written: string): string {
  const last = written.split('.').pop()!.trim();
  return last.startsWith('"') ? last.slice(1, -1) : last.toLowerCase();
}

/**
 * The tables a raw SQL text writes, or 'all' when it cannot tell. The scan batch is
 * one raw statement (insert into leads / lead_scans, update leads); taking every raw write as
 * 'all' emptied the session cache on every batch, so under a burst of scans every request
 * resolved its session again (a six-table join queued behind the scans on the embedded
 * database). DDL, TRUNCATE and COPY stay 'all', and so does a write whose table is not
 * written out in the text (a parameter, `sql.table`).
 */
export function rawWrittenTables(text: string): WrittenTables | null {
  const tables = new Set<string>();
  let writes = false;
  for (const match of text.matchAll(WRITE_SQL)) {
    const keyword = match[1]!.toLowerCase();
    const before = text.slice(0, match.index);
    const after = text.slice(match.index + match[0].length);
    // A row lock (FOR [NO KEY] UPDATE), ON CONFLICT DO UPDATE, or a MERGE's WHEN … THEN action: the INSERT / MERGE named the table.
    if (keyword === 'update' && /\b(?:for(?:\s+no\s+key)?|do)\s+$/i.test(before)) continue;
    if (/\bthen\s+$/i.test(before) && keyword !== 'merge') continue;
    if (keyword !== 'insert' && keyword !== 'update' && keyword !== 'delete' && keyword !== 'merge') return 'all';
    const target = TARGET.exec(keyword === 'update' ? after : after.replace(/^\s+(?:into|from)\b/i, ''));
    if (!target || (keyword !== 'update' && !/^\s+(?:into|from)\b/i.test(after))) return 'all';
    tables.add(tableName(target[1]!));
    writes = true;
  }
  return writes ? tables : null;
}

/** Walks the operation tree: the tables it names and whether any part of it writes. */
export function writtenTables(node: RootOperationNode): WrittenTables | null {
  const tables = new Set<string>();
  let writes = false;
  let unknown = false;
  const raw = (fragments: string[]) => {
    const written = rawWrittenTables(fragments.join(' '));
    if (written === 'all') unknown = true;
    else if (written) {
      writes = true;
      for (const table of written) tables.add(table);
    }
  };
  const visit = (value: unknown): void => {
    if (value === null || typeof value !== 'object') return;
    if (Array.isArray(value)) {
      for (const item of value) visit(item);
      return;
    }
    const kind = (value as { kind?: unknown }).kind;
    if (typeof kind === 'string') {
      if (WRITE_KINDS.has(kind)) writes = true;
      else if (kind === 'RawNode') raw((value as { sqlFragments?: string[] }).sqlFragments ?? []);
      else if (kind.startsWith('Create') || kind.startsWith('Drop') || kind.startsWith('Alter') || kind.startsWith('Refresh')) unknown = true;
      if (kind === 'TableNode') {
        const name = (value as { table?: { identifier?: { name?: unknown } } }).table?.identifier?.name;
        if (typeof name === 'string') tables.add(name);
      }
    }
    for (const child of Object.values(value)) visit(child);
  };
  visit(node);
  if (unknown) return 'all';
  return writes ? tables : null;
}

export class WriteObserver implements KyselyPlugin {
  readonly #listeners = new Set<WriteListener>();
  readonly #pending = new WeakMap<object, WrittenTables>();

  /** Calls `listener` before and after every writing statement; returns the unsubscribe. */
  onWrite(listener: WriteListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  transformQuery({ node, queryId }: PluginTransformQueryArgs): RootOperationNode {
    if (this.#listeners.size === 0) return node;
    const tables = writtenTables(node);
    if (tables) {
      this.#pending.set(queryId, tables);
      this.#notify(tables);
    }
    return node;
  }

  async transformResult({ result, queryId }: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    // Again once the statement ran: a read made while it ran may have cached the old rows.
    const tables = this.#pending.get(queryId);
    if (tables) {
      this.#pending.delete(queryId);
      this.#notify(tables);
    }
    return result;
  }

  #notify(tables: WrittenTables) {
    for (const listener of this.#listeners) listener(tables);
  }
}
