import { createContext, useCallback, useContext, useMemo, useSyncExternalStore } from 'react';
import { getDefaultRegistry } from '@rjsf/core';
import type { FieldProps, UiSchema } from '@rjsf/utils';
import { LIVE_TEXTS_KEY, type FieldLiveTexts, type LiveText } from './display';

// Texts that change while a form is shown (the form editor's preview, F11): a field's title,
// description, help, placeholder and choice labels are read from a store of texts by locale key,
// and only the fields showing a text whose key changed render again. The form itself (schema, UI
// schema, validator, data) stays as it is, so rjsf rebuilds nothing: a typed title reaches the one
// label, or the 50 labels of a list's items, that show it. Without a store (the exhibitors' forms)
// every field renders its UI schema's texts as given.

/**
 * The UI schema's texts a field's widget is given, by the name its `ui:` key has. Descriptions and
 * help are read live by their own templates (useLiveText), and so is the title of an input drawn
 * by the BaseInputTemplate: a change of those renders the template again, not the whole field.
 */
const SINGLE_TEXTS = ['title', 'placeholder'] as const;

export interface LiveTexts {
  /** The text now, in the store's language. */
  text(entry: LiveText): string;
  /** Calls `listener` when the text of one of `keys` changes; answers the unsubscribe. */
  subscribe(keys: readonly string[], listener: () => void): () => void;
  /** Translates every text shown again, telling the fields whose text changed. */
  refresh(): void;
}

const idOf = (entry: LiveText) => (entry.params ? `${entry.key}\u0000${JSON.stringify(entry.params)}` : entry.key);

/** A store of texts translated by `translate`, asked again on `refresh()`. */
export function createLiveTexts(translate: (entry: LiveText) => string): LiveTexts {
  const texts = new Map<string, { entry: LiveText; text: string }>();
  const listeners = new Map<string, Set<() => void>>();
  return {
    text(entry) {
      const id = idOf(entry);
      const known = texts.get(id);
      if (known) return known.text;
      const text = translate(entry);
      texts.set(id, { entry, text });
      return text;
    },
    subscribe(keys, listener) {
      for (const key of keys) {
        const set = listeners.get(key) ?? new Set();
        set.add(listener);
        listeners.set(key, set);
      }
      return () => {
        for (const key of keys) listeners.get(key)?.delete(listener);
      };
    },
    refresh() {
      const told = new Set<() => void>();
      for (const known of texts.values()) {
        const text = translate(known.entry);
        if (text === known.text) continue;
        known.text = text;
        for (const listener of listeners.get(known.entry.key) ?? []) told.add(listener);
      }
      for (const listener of told) listener();
    },
  };
}

export const LiveTextsContext = createContext<LiveTexts | null>(null);

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const NO_ENTRIES: LiveText[] = [];
const SEPARATOR = '\u0001';
const noSubscription = () => () => undefined;

/** The live texts a field's UI schema names, in a fixed order (its single texts, then its choice labels). */
function entriesOf(live: FieldLiveTexts | undefined): LiveText[] {
  if (!live) return NO_ENTRIES;
  const entries: LiveText[] = [];
  for (const name of SINGLE_TEXTS) if (live[name]) entries.push(live[name]);
  return [...entries, ...(live.enumNames ?? [])];
}

/** `uiSchema` with the store's texts where they differ from its own (itself when none does). */
function withTexts(uiSchema: UiSchema, live: FieldLiveTexts, texts: string[]): UiSchema {
  const changed: Record<string, unknown> = {};
  let index = 0;
  for (const name of SINGLE_TEXTS) {
    if (!live[name]) continue;
    const text = texts[index++];
    if (text !== uiSchema[`ui:${name}`]) changed[`ui:${name}`] = text;
  }
  if (live.enumNames) {
    const names = texts.slice(index, index + live.enumNames.length);
    const current = uiSchema['ui:enumNames'];
    if (!Array.isArray(current) || names.some((name, at) => name !== current[at])) changed['ui:enumNames'] = names;
  }
  return Object.keys(changed).length === 0 ? uiSchema : { ...uiSchema, ...changed };
}

/** A field's UI schema with its texts as the store has them now; renders again only when one of them changes. */
function useLiveUi(store: LiveTexts, uiSchema: UiSchema | undefined): UiSchema | undefined {
  const live = isObject(uiSchema) && isObject(uiSchema[LIVE_TEXTS_KEY]) ? (uiSchema[LIVE_TEXTS_KEY] as FieldLiveTexts) : undefined;
  const entries = useMemo(() => entriesOf(live), [live]);
  const subscribe = useCallback(
    (listener: () => void) =>
      entries.length === 0
        ? noSubscription()
        : store.subscribe(
            entries.map((entry) => entry.key),
            listener,
          ),
    [store, entries],
  );
  const snapshot = useSyncExternalStore(subscribe, () => entries.map((entry) => store.text(entry)).join(SEPARATOR));
  return useMemo(() => (uiSchema && live ? withTexts(uiSchema, live, snapshot.split(SEPARATOR)) : uiSchema), [uiSchema, live, snapshot]);
}

/**
 * A text a template shows (a title, a description, help), read live when it is the UI schema's own
 * text of that name and the store is there; otherwise `given` as it is.
 */
export function useLiveText<T>(uiSchema: UiSchema | undefined, name: 'title' | 'description' | 'help', given: T): T | string {
  const store = useContext(LiveTextsContext);
  const live = isObject(uiSchema) && isObject(uiSchema[LIVE_TEXTS_KEY]) ? (uiSchema[LIVE_TEXTS_KEY] as FieldLiveTexts) : undefined;
  const entry = store && live && given === uiSchema?.[`ui:${name}`] ? live[name] : undefined;
  const subscribe = useCallback((listener: () => void) => (store && entry ? store.subscribe([entry.key], listener) : noSubscription()), [store, entry]);
  const text = useSyncExternalStore(subscribe, () => (store && entry ? store.text(entry) : null));
  return text ?? given;
}

/** A text of a field's UI schema as text, read live (only this text renders again when it changes). */
export function LiveTextNode({ uiSchema, name, given }: { uiSchema: UiSchema | undefined; name: 'title' | 'description' | 'help'; given: string }) {
  return <>{useLiveText(uiSchema, name, given)}</>;
}

// rjsf always registers its schema field.
const CoreSchemaField = getDefaultRegistry().fields.SchemaField!;

/**
 * A field whose items or properties are fields of their own: its title, description and help are
 * read live by their templates (useLiveText), and its UI schema is left as it is. A list hands its
 * UI schema to every item, so a new one would render all its items again.
 */
function holdsFields(schema: FieldProps['schema']): boolean {
  if (schema.type === 'object' || isObject(schema.properties)) return true;
  const items = schema.items;
  return schema.type === 'array' && !(isObject(items) && Array.isArray(items.enum));
}

/** Widgets rjsf draws with the BaseInputTemplate (a text field with its label), whose template reads the title live. */
const INPUT_WIDGETS = new Set([undefined, 'text', 'textarea', 'email', 'uri', 'url', 'date', 'date-time', 'time', 'password', 'updown']);

/** A field drawn by the BaseInputTemplate: a string or number without choices, file or own field or widget. */
function drawnAsInput(schema: FieldProps['schema'], uiSchema: UiSchema | undefined): boolean {
  if (!['string', 'number', 'integer'].includes(schema.type as string) || 'enum' in schema || 'const' in schema || schema.format === 'data-url') return false;
  if (uiSchema?.['ui:field'] !== undefined) return false;
  const widget = uiSchema?.['ui:widget'] ?? (isObject(uiSchema?.['ui:options']) ? uiSchema['ui:options'].widget : undefined);
  return INPUT_WIDGETS.has(widget as string | undefined);
}

function LiveTextsSchemaField({ store, ...props }: FieldProps & { store: LiveTexts }) {
  const asIs = holdsFields(props.schema) || drawnAsInput(props.schema, props.uiSchema);
  const uiSchema = useLiveUi(store, asIs ? undefined : props.uiSchema);
  return <CoreSchemaField {...props} uiSchema={asIs ? props.uiSchema : uiSchema} />;
}

/**
 * rjsf's schema field (every field of a form renders through it), given the store's texts when a
 * store is there. A plain function component, as rjsf 6.11 on React 19 expects of fields.
 */
export function LiveSchemaField(props: FieldProps) {
  const store = useContext(LiveTextsContext);
  return store ? <LiveTextsSchemaField {...props} store={store} /> : <CoreSchemaField {...props} />;
}
