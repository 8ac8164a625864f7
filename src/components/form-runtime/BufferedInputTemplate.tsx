import { useContext, useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { Templates } from '@rjsf/mui';
import type { BaseInputTemplateProps } from '@rjsf/utils';
import { LiveTextNode, LiveTextsContext, useLivePlaceholder } from './live-texts';

// The text inputs of a generated form, typed into at the speed of a plain input (a
// keystroke reaches the screen within a frame in a 50-item list). The input shows what was typed
// at once and hands it to rjsf right after that frame is painted: rjsf's change handling (it
// clones the whole form data, recomputes defaults and renders the form) then no longer sits
// between the key and the screen. Several keys within one frame are handed over once. A blur or
// Enter hands over at once, so a Submit, a "Save draft" or leaving the field always sees
// everything typed; an input that goes away drops what it had not handed over (its item is gone).

const MuiBaseInputTemplate = Templates.BaseInputTemplate!;

/** Input types whose value is plain text, kept as typed; numbers and dates go to rjsf directly. */
const TEXT_TYPES = new Set([undefined, '', 'text', 'email', 'url', 'tel', 'search', 'password']);

/** A plain function component, as rjsf 6.11 on React 19 expects of templates and widgets. */
export function BufferedInputTemplate(props: BaseInputTemplateProps) {
  const { value, onChange, onBlur, onKeyDown, type, onChangeOverride } = props as BaseInputTemplateProps & { onKeyDown?: (event: KeyboardEvent) => void };
  const buffered = TEXT_TYPES.has(type) && !onChangeOverride;
  /** What was typed and not yet seen back from rjsf. */
  const [draft, setDraft] = useState<{ value: unknown } | null>(null);
  const pending = useRef<{ value: unknown; frame: number; timer: number | undefined } | null>(null);
  const latestOnChange = useRef(onChange);
  latestOnChange.current = onChange;

  const cancel = () => {
    if (!pending.current) return;
    cancelAnimationFrame(pending.current.frame);
    window.clearTimeout(pending.current.timer);
    pending.current = null;
  };
  const flush = () => {
    if (!pending.current) return;
    const { value: next } = pending.current;
    cancel();
    latestOnChange.current(next);
  };
  useEffect(() => cancel, []);

  // rjsf has caught up (or the value was changed from outside): show rjsf's value again.
  if (draft && !pending.current && Object.is(draft.value, value)) setDraft(null);

  // A key the schema requires may still be left empty (an API entity's `required` says present, not
  // filled): `markRequired: false` (for instance in `ui:globalOptions`) drops the asterisk.
  const required = props.required && (props.options.markRequired ?? props.registry.globalUiOptions?.markRequired) !== false;
  // Where the form's texts change while shown (live-texts.tsx), the label is read live by a text
  // of its own: a typed title renders that text again, not the input. (MUI's text field takes any node as its label.)
  const live = useContext(LiveTextsContext) !== null && typeof props.label === 'string' && props.label !== '';
  const label = live ? ((<LiveTextNode uiSchema={props.uiSchema} name="title" given={props.label} />) as unknown as string) : props.label;
  // Its placeholder too, set on the input element itself (an attribute): the input does not render again.
  const placeholderRef = useLivePlaceholder(props.uiSchema, props.placeholder);
  // MUI's text field hands `inputRef` to its input element; without a live placeholder nothing is added.
  const inputRef = placeholderRef ? { inputRef: placeholderRef } : {};
  if (!buffered) return <MuiBaseInputTemplate {...props} {...inputRef} label={label} required={required} />;

  return (
    <MuiBaseInputTemplate
      {...props}
      {...inputRef}
      label={label}
      required={required}
      value={draft ? draft.value : value}
      onChange={(next: unknown) => {
        setDraft({ value: next });
        if (pending.current) {
          pending.current.value = next;
          return;
        }
        const entry: { value: unknown; frame: number; timer: number | undefined } = { value: next, frame: 0, timer: undefined };
        // After the next frame is painted: a timer queued from requestAnimationFrame runs after it.
        entry.frame = requestAnimationFrame(() => {
          entry.timer = window.setTimeout(flush, 0);
        });
        pending.current = entry;
      }}
      onBlur={(id: string, blurred: unknown) => {
        flush();
        onBlur(id, blurred);
      }}
      onKeyDown={(event: KeyboardEvent) => {
        // Enter in a text input submits the form: everything typed must be in rjsf's data first.
        if (event.key === 'Enter') flush();
        onKeyDown?.(event);
      }}
    />
  );
}
