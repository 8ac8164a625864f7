import { createContext, useCallback, useContext, useLayoutEffect, useMemo, useRef, useSyncExternalStore, type ComponentType, type RefObject } from 'react';
import { getDefaultRegistry } from '@rjsf/core';
import type { FieldProps, UiSchema, WidgetProps } from '@rjsf/utils';
import { LIVE_TEXTS_KEY, type FieldLiveTexts, type LiveText } from './display';

// Texts that change while a form is shown (the form editor's preview, F11): a field's title,
// description, help, placeholder and choice labels are read from a store of texts by locale key,
// and only the fields showing a text whose key changed render again. The form itself (schema, UI
// schema, validator, data) stays as it is, so rjsf rebuilds nothing: a typed title reaches the one
// label, or the 50 labels of a list's items, that show it. Without a store (the exhibitors' forms)
// every field renders its UI schema's texts as given.

/**
 * The UI schema's texts a field's widget is given, by the name its `ui:` key has. Descriptions and
 * help are read live by their own templates (useLiveText), and so are the title and placeholder of
 * an input drawn by the BaseInputTemplate (useLivePlaceholder), and the title and option labels of
 * a field drawn by a choice widget (liveChoiceWidget): a change of those renders the template or
 * widget again (an input's: only its label's text), not the whole field.
 */
const SINGLE_TEXTS = ['title', 'placeholder'] as const;

export interface LiveTexts {
  /** The text now, in the store's language. */
  text(entry: LiveText): string;
  /** Calls `listener` when the text of one of `keys` changes; answers the unsubscribe. */
  subscribe(keys: readonly string[], listener: () => void): () => void;
  /**
   * Translates the texts shown again (those of `keys` alone when given: the keys whose text may
   * have changed), telling the fields whose text changed.
   */
  refresh(keys?: ReadonlySet<string>): void;
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
    refresh(keys) {
      const told = new Set<() => void>();
      for (const known of texts.values()) {
        if (keys && !keys.has(known.entry.key)) continue;
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
const liveTextsOf = (uiSchema: UiSchema | undefined) => (isObject(uiSchema) && isObject(uiSchema[LIVE_TEXTS_KEY]) ? (uiSchema[LIVE_TEXTS_KEY] as FieldLiveTexts) : undefined);

/**
 * The texts of a field's UI schema given through it: all of them, or (a field drawn by a choice
 * widget, which reads its title and choice labels live) only the placeholder.
 */
function givenTexts(live: FieldLiveTexts | undefined, byChoiceWidget: boolean): FieldLiveTexts | undefined {
  if (!live || !byChoiceWidget) return live;
  return live.placeholder ? { placeholder: live.placeholder } : undefined;
}

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
function useLiveUi(store: LiveTexts, uiSchema: UiSchema | undefined, byChoiceWidget: boolean): UiSchema | undefined {
  const all = liveTextsOf(uiSchema);
  const live = useMemo(() => givenTexts(all, byChoiceWidget), [all, byChoiceWidget]);
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

/**
 * Renders the caller again when the text of one of `keys` changes in the store (none: never), for
 * a text built from several (a list's "Remove badge 3", built when its button renders).
 */
export function useLiveKeys(keys: readonly string[] | undefined): void {
  const store = useContext(LiveTextsContext);
  const subscribe = useCallback((listener: () => void) => (store && keys && keys.length > 0 ? store.subscribe(keys, listener) : noSubscription()), [store, keys]);
  useSyncExternalStore(subscribe, () => (store && keys ? keys.map((key) => store.text({ key })).join(SEPARATOR) : ''));
}

/** A text of a field's UI schema as text, read live (only this text renders again when it changes). */
export function LiveTextNode({ uiSchema, name, given }: { uiSchema: UiSchema | undefined; name: 'title' | 'description' | 'help'; given: string }) {
  return <>{useLiveText(uiSchema, name, given)}</>;
}

/**
 * The input element of a text input whose placeholder is its UI schema's own, for a ref: while the
 * store is there, the element's placeholder follows the store's text. A placeholder is an attribute,
 * not a text node, and rendering the input again for it would render its whole MUI text field (50
 * of them in a list of 50 items), so the text is set on the element itself; the input renders as
 * given otherwise. Answers undefined (no ref needed) without a store or such a placeholder.
 */
export function useLivePlaceholder(uiSchema: UiSchema | undefined, given: string | undefined): RefObject<HTMLInputElement | HTMLTextAreaElement | null> | undefined {
  const store = useContext(LiveTextsContext);
  const entry = store && given !== undefined && given === uiSchema?.['ui:placeholder'] ? liveTextsOf(uiSchema)?.placeholder : undefined;
  const element = useRef<HTMLInputElement | HTMLTextAreaElement | null>(null);
  // Again after React set `given` on the element (a new UI schema): the store's text stays shown.
  useLayoutEffect(() => {
    const input = element.current;
    if (!store || !entry || !input) return;
    const show = () => {
      const text = store.text(entry);
      if (input.placeholder !== text) input.placeholder = text;
    };
    show();
    return store.subscribe([entry.key], show);
  }, [store, entry, given]);
  return entry ? element : undefined;
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

/** The choice widgets a UI schema may name for each kind of field (rjsf's defaults included); all of them read their texts live (liveChoiceWidget). */
const CHOICE_WIDGETS: Record<string, ReadonlySet<string | undefined>> = {
  enum: new Set([undefined, 'select', 'radio']),
  boolean: new Set([undefined, 'checkbox', 'radio', 'select']),
  multiple: new Set([undefined, 'select', 'checkboxes']),
};

/** A field drawn by a choice widget (a radio group, a select, checkboxes, a checkbox) rjsf picks for its schema. */
function drawnByChoiceWidget(schema: FieldProps['schema'], uiSchema: UiSchema | undefined): boolean {
  if (uiSchema?.['ui:field'] !== undefined) return false;
  const widget = (uiSchema?.['ui:widget'] ?? (isObject(uiSchema?.['ui:options']) ? uiSchema['ui:options'].widget : undefined)) as string | undefined;
  const items = schema.items;
  const kind =
    schema.type === 'boolean'
      ? 'boolean'
      : schema.type === 'array' && isObject(items) && Array.isArray(items.enum)
        ? 'multiple'
        : ['string', 'number', 'integer'].includes(schema.type as string) && Array.isArray(schema.enum)
          ? 'enum'
          : null;
  return kind !== null && CHOICE_WIDGETS[kind]!.has(widget);
}

function LiveTextsSchemaField({ store, ...props }: FieldProps & { store: LiveTexts }) {
  const asIs = holdsFields(props.schema) || drawnAsInput(props.schema, props.uiSchema);
  const uiSchema = useLiveUi(store, asIs ? undefined : props.uiSchema, !asIs && drawnByChoiceWidget(props.schema, props.uiSchema));
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

/** The codes of a choice widget's options, in the order of the UI schema's choice labels (the schema's enum). */
function codesOf(schema: WidgetProps['schema']): unknown[] {
  if (Array.isArray(schema.enum)) return schema.enum;
  const items = schema.items;
  return isObject(items) && Array.isArray(items.enum) ? items.enum : [];
}

/** One text as the store has it (`fallback` when empty); only this text renders again when it changes. */
function LiveEntryText({ store, entry, fallback }: { store: LiveTexts; entry: LiveText; fallback?: string }) {
  const subscribe = useCallback((listener: () => void) => store.subscribe([entry.key], listener), [store, entry]);
  const text = useSyncExternalStore(subscribe, () => store.text(entry));
  return <>{text || fallback}</>;
}

/**
 * A choice widget given its title and option labels as texts that read the store themselves, so a
 * typed label renders those texts again, not the widget (a radio group's options are MUI buttons).
 * The theme's choice widgets render both as React children; rjsf types them as strings.
 */
function LiveChoiceTexts({ store, Widget, props }: { store: LiveTexts; Widget: ComponentType<WidgetProps>; props: WidgetProps }) {
  const { uiSchema, label, options, schema } = props;
  // A list of checkboxes has its labels' keys on the list, or on its items (where rjsf reads its labels).
  const live = liveTextsOf(uiSchema);
  const names = live?.enumNames ?? liveTextsOf(isObject(uiSchema?.items) ? (uiSchema.items as UiSchema) : undefined)?.enumNames;
  const title = live?.title && label === uiSchema?.['ui:title'] ? live.title : undefined;
  const enumOptions = useMemo(() => {
    if (!names || !Array.isArray(options.enumOptions)) return options.enumOptions;
    const codes = codesOf(schema);
    return options.enumOptions.map((option) => {
      const at = codes.indexOf(option.value);
      const entry = at >= 0 ? names[at] : undefined;
      // As rjsf labels an option without a text: by its code.
      return entry ? { ...option, label: (<LiveEntryText store={store} entry={entry} fallback={String(option.value)} />) as unknown as string } : option;
    });
  }, [store, names, options.enumOptions, schema]);
  const shownOptions = enumOptions === options.enumOptions ? options : { ...options, enumOptions };
  const shownLabel = title ? ((<LiveEntryText store={store} entry={title} />) as unknown as string) : label;
  return <Widget {...props} label={shownLabel} options={shownOptions} />;
}

/**
 * A choice widget (radio group, select, checkboxes, checkbox) that shows its title and option
 * labels as the store has them: a typed choice label renders those texts again, not the widget or its field.
 * Without a store (the exhibitors' forms) the widget renders as given.
 */
export function liveChoiceWidget(Widget: ComponentType<WidgetProps>): ComponentType<WidgetProps> {
  // A plain function component, as rjsf 6.11 on React 19 expects of widgets.
  return function LiveChoiceWidget(props: WidgetProps) {
    const store = useContext(LiveTextsContext);
    return store ? <LiveChoiceTexts store={store} Widget={Widget} props={props} /> : <Widget {...props} />;
  };
}
