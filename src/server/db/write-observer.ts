import type { KyselyPlugin, PluginTransformQueryArgs, PluginTransformResultArgs, QueryResult, RootOperationNode, UnknownRow } from 'kysely';

// Issue 15 (speed): caches of database rows (the resolved sessions of the auth hook) must forget
// what a write may have changed. This Kysely plugin sees every statement made through the
// instance it is attached to and tells listeners which tables a writing statement names.

/** Every table a statement names, or null when it writes nothing; 'all' when it cannot tell (raw SQL, DDL). */
export type WrittenTables = ReadonlySet<string> | 'all';
export type WriteListener = (tables: WrittenTables) => void;

const WRITE_KINDS = new Set(['InsertQueryNode', 'UpdateQueryNode', 'DeleteQueryNode', 'MergeQueryNode']);
const WRITE_SQL = /\b(insert|update|delete|merge|truncate|alter|drop|create|copy)\b/i;

/** Walks the operation tree: the tables it names and whether any part of it writes. */
export function writtenTables(node: RootOperationNode): WrittenTables | null {
  const tables = new Set<string>();
  let writes = false;
  let unknown = false;
  const visit = (value: unknown): void => {
    if (value === null || typeof value !== 'object') return;
    if (Array.isArray(value)) {
      for (const item of value) visit(item);
      return;
    }
    const kind = (value as { kind?: unknown }).kind;
    if (typeof kind === 'string') {
      if (WRITE_KINDS.has(kind)) writes = true;
      else if (kind === 'RawNode' && WRITE_SQL.test(((value as { sqlFragments?: string[] }).sqlFragments ?? []).join(' '))) unknown = true;
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
