import { useRef } from 'react';
import { getDefaultRegistry } from '@rjsf/core';
import type { FieldProps, RJSFSchema } from '@rjsf/utils';
import { share } from './share';
import { QuotaNote, type RuntimeFormContext } from './QuotaNote';
import { LIVE_TEXTS_KEY, type FieldLiveTexts } from './display';
import { useLiveText } from './live-texts';

// rjsf's own array field, given the previous objects wherever nothing changed (lib/share.ts).
// rjsf memoises each array item on its props, but on every change it rebuilds every item of the
// form data, and SchemaField hands the array a fresh copy of its UI schema (it strips
// ui:classNames / ui:style with a rest spread), so without this one keystroke re-renders all
// items of a 50-item list.

// rjsf always registers its array field.
const CoreArrayField = getDefaultRegistry().fields.ArrayField!;

/** A plain function component, as rjsf 6.11 on React 19 expects of fields and widgets. */
export function StableArrayField(props: FieldProps<unknown, RJSFSchema, Partial<RuntimeFormContext>>) {
  const previous = useRef<Pick<FieldProps<unknown, RJSFSchema, Partial<RuntimeFormContext>>, 'formData' | 'errorSchema' | 'uiSchema' | 'schema'> | null>(null);
  const last = previous.current;
  const stable = {
    formData: share(last?.formData, props.formData),
    errorSchema: share(last?.errorSchema, props.errorSchema),
    uiSchema: share(last?.uiSchema, props.uiSchema),
    schema: share(last?.schema, props.schema),
  };
  previous.current = stable;
  // Where the form's texts change while shown (live-texts.tsx), the list's title as it is now.
  const titleKey = props.schema.title ?? props.name;
  const uiTitle = useLiveText(props.uiSchema, 'title', props.uiSchema?.['ui:title']);
  const live = props.uiSchema?.[LIVE_TEXTS_KEY] as FieldLiveTexts | undefined;
  const quota = 'quota' in props.schema ? props.schema.quota : undefined;
  const minItems = props.schema.minItems;
  // An exhibitor's form gives its quotas and labels (FormRuntime); a console form gives none.
  const { quotas, uploads, label, fee } = props.registry.formContext;
  if ((typeof quota !== 'string' && !minItems) || !quotas || !uploads || !label) return <CoreArrayField {...props} {...stable} />;
  const context: RuntimeFormContext = { quotas, uploads, label, fee };
  return (
    <>
      <CoreArrayField {...props} {...stable} />
      <QuotaNote
        kind={typeof quota === 'string' ? quota : undefined}
        minItems={minItems}
        name={props.name}
        title={live?.title?.key === titleKey && typeof uiTitle === 'string' ? uiTitle : label(titleKey)}
        items={Array.isArray(props.formData) ? props.formData : []}
        itemSchema={(props.schema.items ?? {}) as never}
        context={context}
      />
    </>
  );
}
