import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { Templates } from '@rjsf/mui';
import type { BaseInputTemplateProps } from '@rjsf/utils';

// The text inputs of a generated form, typed into at the speed of a plain input (a
// keystroke reaches the screen within a frame in a 200-item list). The input shows what was typed
// at once and hands it to rjsf once the user pauses (HANDOFF_PAUSE_MS without a key): rjsf's change
// handling costs in proportion to the whole form (it clones the whole form data, recomputes every
// default, hashes each list and renders the form), tens of milliseconds in a long list, so it runs
// in the pauses between words rather than between two keys, where it would hold up the next key.
// Keys typed without a pause are handed over once. A blur or Enter hands over at once, so a Submit,
// a "Save draft" or leaving the field always sees everything typed; an input that goes away drops
// what it had not handed over (its item is gone).

/** How long the user stops typing before rjsf gets what was typed: longer than the gap between two keys of a fast typist. */
export const HANDOFF_PAUSE_MS = 250;

const MuiBaseInputTemplate = Templates.BaseInputTemplate!;

/** Input types whose value is plain text, kept as typed; numbers and dates go to rjsf directly. */
const TEXT_TYPES = new Set([undefined, '', 'text', 'email', 'url', 'tel', 'search', 'password']);

/** A plain function component, as rjsf 6.11 on React 19 expects of templates and widgets. */
export function BufferedInputTemplate(props: BaseInputTemplateProps) {
  const { value, onChange, onBlur, onKeyDown, type, onChangeOverride } = props as BaseInputTemplateProps & { onKeyDown?: (event: KeyboardEvent) => void };
  const buffered = TEXT_TYPES.has(type) && !onChangeOverride;
  /** What was typed and not yet seen back from rjsf. */
  const [draft, setDraft] = useState<{ value: unknown } | null>(null);
  const pending = useRef<{ value: unknown; timer: number } | null>(null);
  const latestOnChange = useRef(onChange);
  latestOnChange.current = onChange;

  const cancel = () => {
    if (!pending.current) return;
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
  if (!buffered) return <MuiBaseInputTemplate {...props} required={required} />;

  return (
    <MuiBaseInputTemplate
      {...props}
      required={required}
      value={draft ? draft.value : value}
      onChange={(next: unknown) => {
        setDraft({ value: next });
        // Each key starts the pause again; the frame showing the key is long painted when it ends.
        window.clearTimeout(pending.current?.timer);
        pending.current = { value: next, timer: window.setTimeout(flush, HANDOFF_PAUSE_MS) };
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
