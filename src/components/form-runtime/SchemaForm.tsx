import { useMemo, type ReactNode } from 'react';
import Form from '@rjsf/mui';
import type { ErrorSchema, RegistryFieldsType, RegistryWidgetsType, RJSFSchema, UiSchema } from '@rjsf/utils';
import { createPrecompiledValidator } from '@rjsf/validator-ajv8';
import { useTranslation } from 'react-i18next';
import type { FieldProblems } from '../../engine/organiser-events';
import { validatorRequire, type CompiledValidators } from '../../engine/forms/served-validators';
import { ERRORS, isErrorId } from '../../engine/errors';
import { ApiError } from '../../lib/api-client';
import { consoleFields, consoleWidgets } from './console-fields';
import { displayUi, rjsfStrings, translateErrors } from './display';
import { fields as runtimeFields, templates as runtimeTemplates, widgets as runtimeWidgets } from './form-view';
import { SectionsTemplate } from './SectionsTemplate';

// An entity of the organiser console (an event, an exhibitor…) edited through the form runtime:
// rendered from its JSON Schema (the one the server's route validates with) and a UI schema of
// locale keys, validated in the browser by the schema's ahead-of-time compiled ajv validators
// (src/generated/entity-validators.ts) with the messages exhibitors' forms give, in the user's
// language. Problems found by the page's rules or answered by the server (field path → locale
// key) show beside their fields too.

/** What `npm run generate` compiled for one schema: given `require`, rjsf's validators by schema hash. */
export type EntityValidators = (require: (specifier: string) => unknown) => CompiledValidators;

/** Field paths with dots ("showDays.0.closes") as rjsf's error schema, each message translated. */
export function problemsErrorSchema(problems: FieldProblems, t: (key: string) => string): ErrorSchema {
  const root: ErrorSchema = {};
  for (const [path, key] of Object.entries(problems)) {
    let node: ErrorSchema = root;
    for (const part of path.split('.').filter(Boolean)) {
      const child: ErrorSchema = node[part] ?? {};
      node[part] = child;
      node = child;
    }
    node.__errors = [...(node.__errors ?? []), t(key)];
  }
  return root;
}

interface Props<T> {
  /** The entity's JSON Schema as compiled (consoleFormSchema of the route's schema). */
  schema: RJSFSchema;
  validators: EntityValidators;
  /** The UI schema: texts as locale keys (`ui:title`, `ui:help`), layout in `ui:options.sections`, custom fields by name. */
  ui: UiSchema;
  data: T;
  onChange: (data: T) => void;
  /** Called with data the schema accepts. */
  onSubmit: (data: T) => void;
  /** The schema refused the data: its problems are shown beside their fields. */
  onInvalid?: () => void;
  /** Problems the page's rules or the server found, by field path. */
  problems: FieldProblems;
  /** The page's own fields and widgets, beside the runtime's. */
  fields?: RegistryFieldsType;
  widgets?: RegistryWidgetsType;
  disabled?: boolean;
  /** What follows the fields: the page's buttons. */
  children: ReactNode;
}

export function SchemaForm<T extends object>({ schema, validators, ui, data, onChange, onSubmit, onInvalid, problems, fields, widgets, disabled, children }: Props<T>) {
  const { t, i18n } = useTranslation();
  const validator = useMemo(() => createPrecompiledValidator<T>(validators(validatorRequire), schema), [validators, schema]);
  // The language is part of the translated UI schema.
  const shown = useMemo(() => displayUi(ui, schema, '', t, {}, {}, { schemaTexts: false }), [ui, schema, t, i18n.language]);
  const transformErrors = useMemo(() => translateErrors(schema, t), [schema, t, i18n.language]);
  const translateString = useMemo(() => rjsfStrings(t, (key) => i18n.exists(key)), [t, i18n]);
  const extraErrors = useMemo(() => problemsErrorSchema(problems, t), [problems, t, i18n.language]);
  return (
    <Form
      schema={schema}
      uiSchema={shown}
      formData={data}
      validator={validator}
      fields={{ ...runtimeFields, ...consoleFields, ...fields }}
      widgets={{ ...runtimeWidgets, ...consoleWidgets, ...widgets }}
      templates={{ ...runtimeTemplates, ObjectFieldTemplate: SectionsTemplate }}
      transformErrors={transformErrors}
      translateString={translateString}
      extraErrors={extraErrors}
      disabled={disabled}
      showErrorList={false}
      noHtml5Validate
      focusOnFirstError
      onChange={(event) => {
        if (event.formData !== undefined) onChange(event.formData);
      }}
      onSubmit={(event) => {
        if (event.formData !== undefined) onSubmit(event.formData);
      }}
      onError={() => onInvalid?.()}
    >
      {children}
    </Form>
  );
}

/**
 * The field problems of a refused save, or none: the server's coded answer names them by field
 * path (`fields`: path → locale key), or names the one field its error is about (`field`: the
 * error's own message).
 */
export function fieldProblemsOf(failure: unknown): FieldProblems {
  const data = failure instanceof ApiError ? failure.data : undefined;
  const fields = typeof data === 'object' && data !== null && 'fields' in data ? data.fields : undefined;
  if (typeof fields === 'object' && fields !== null) {
    return Object.fromEntries(Object.entries(fields).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
  }
  const field = typeof data === 'object' && data !== null && 'field' in data ? data.field : undefined;
  const errorId = failure instanceof ApiError ? failure.errorId : undefined;
  return typeof field === 'string' && isErrorId(errorId) ? { [field]: ERRORS[errorId].message } : {};
}

/** A UI schema node with its `ui:options` extended (what a page adds from the data it loaded: names, choices, an offset). */
export function withUiOptions(node: unknown, options: Record<string, unknown>): UiSchema {
  const base: UiSchema = typeof node === 'object' && node !== null ? { ...node } : {};
  const current = base['ui:options'];
  return { ...base, 'ui:options': { ...(typeof current === 'object' && current !== null ? current : {}), ...options } };
}
