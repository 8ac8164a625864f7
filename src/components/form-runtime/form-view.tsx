import { useEffect, useRef } from 'react';
import { Alert, AlertTitle, Box, Link } from '@mui/material';
import type { RegistryFieldsType, RegistryWidgetsType, RJSFSchema, RJSFValidationError } from '@rjsf/utils';
import { Widgets as MuiWidgets } from '@rjsf/mui';
import { createPrecompiledValidator } from '@rjsf/validator-ajv8';
import type { i18n as I18n, TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import useSWR from 'swr';
import type { FormContext } from '../../engine/forms/context';
import { helpParams, type FormDefinition } from '../../engine/forms/definitions';
import type { UploadRules } from '../../engine/forms/files';
import { setFormContext } from '../../engine/forms/rules';
import { instantiateValidators, type ValidatorModule } from '../../engine/forms/served-validators';
import { displayUi, markDuplicates, rjsfStrings, translateErrors } from './display';
import { fieldIdOf } from './field-ids';
import { BufferedInputTemplate } from './BufferedInputTemplate';
import { HeadingTitleField, LiveFieldHelp, TextDescriptionField } from './HeadingTitleField';
import { ListAddButton, ListItemButtons } from './ListControls';
import { ArrayItemTemplate } from './ArrayItemTemplate';
import { StableArrayField } from './StableArrayField';
import type { RuntimeFormContext } from './QuotaNote';
import { UploadField } from './UploadField';
import { CountryWidget } from './CountryWidget';
import { liveChoiceWidget, LiveSchemaField } from './live-texts';

// What a generated form is rendered with: the exhibitor's form (FormRuntime) and the organiser's
// gallery share it, so the gallery shows exactly what exhibitors get.

const objectOrEmpty = (value: unknown): Record<string, unknown> => (typeof value === 'object' && value !== null && !Array.isArray(value) ? { ...value } : {});

/** Renders nothing: a field behind an exhibitor flag that is off. */
function HiddenField() {
  return null;
}

/** The fields and templates every generated form renders with (the exhibitor's form and the organiser's gallery alike). */
export const fields: RegistryFieldsType = { SchemaField: LiveSchemaField, ArrayField: StableArrayField, upload: UploadField, hidden: HiddenField };
/**
 * Widgets a UI schema chooses by name (`"ui:widget": "country"`), and the theme's choice widgets
 * showing their title and option labels live where the texts change while shown (live-texts.tsx).
 */
export const widgets: RegistryWidgetsType = {
  country: CountryWidget,
  RadioWidget: liveChoiceWidget(MuiWidgets.RadioWidget!),
  SelectWidget: liveChoiceWidget(MuiWidgets.SelectWidget!),
  CheckboxesWidget: liveChoiceWidget(MuiWidgets.CheckboxesWidget!),
  CheckboxWidget: liveChoiceWidget(MuiWidgets.CheckboxWidget!),
};
export const templates = {
  BaseInputTemplate: BufferedInputTemplate,
  ArrayFieldItemTemplate: ArrayItemTemplate,
  ArrayFieldItemButtonsTemplate: ListItemButtons,
  ButtonTemplates: { AddButton: ListAddButton },
  TitleFieldTemplate: HeadingTitleField,
  DescriptionFieldTemplate: TextDescriptionField,
  FieldHelpTemplate: LiveFieldHelp,
};
/** How rjsf fills in a form's defaults (F9): no pre-ticked declaration, no blank list entries. */
export const DEFAULT_FORM_STATE = { constAsDefaults: 'never', arrayMinItems: { populate: 'never' } } as const;

/** The input a summary link moves focus to: the field's own, or the first one inside a list or group. */
function focusField(id: string) {
  const element = document.getElementById(id);
  if (!element) return;
  const target = element.matches('input, select, textarea, button') ? element : element.querySelector<HTMLElement>('input, select, textarea, button');
  (target ?? element).scrollIntoView({ block: 'center' });
  (target ?? element).focus();
}

/** The label users see for a field, as rendered (a label, a group's legend), or null. */
function fieldLabel(id: string): string | null {
  const element = document.getElementById(id);
  if (!element) return null;
  // A choice of radios is a group, not an input: its label names it by `for` (rjsf's RadioWidget).
  const label =
    (element instanceof HTMLInputElement ? element.labels?.[0]?.textContent : undefined) ??
    document.querySelector(`label[for="${CSS.escape(id)}"]`)?.textContent ??
    element.closest('fieldset')?.querySelector('legend')?.textContent ??
    element.getAttribute('aria-label');
  return label ? label.replace(/\s*\*\s*$/, '').trim() : null;
}

/**
 * F9: a refused submit's problems, each a link that moves focus to its field. Each
 * refused submit (`refusal` counts them) moves focus to the summary, so keyboard and screen-reader
 * users land on what to fix; live re-validation while typing leaves focus where it is.
 */
export function ProblemSummary({ problems, refusal }: { problems: RJSFValidationError[]; refusal: number }) {
  const { t } = useTranslation();
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (refusal === 0) return;
    box.current?.scrollIntoView({ block: 'start' });
    box.current?.focus();
  }, [refusal]);
  return (
    <Alert ref={box} tabIndex={-1} severity="error" role="alert" sx={{ mb: 2 }}>
      <AlertTitle>{t('formRuntime.problems.title', { count: problems.length })}</AlertTitle>
      <Box component="ul" sx={{ m: 0, pl: 2 }}>
        {problems.map((problem, index) => {
          const id = fieldIdOf(problem.property);
          const label = fieldLabel(id);
          return (
            <li key={`${id}-${index}`}>
              <Link
                href={`#${id}`}
                onClick={(event) => {
                  event.preventDefault();
                  focusField(id);
                }}
              >
                {label ? `${label}: ${problem.message}` : problem.message}
              </Link>
            </li>
          );
        })}
      </Box>
    </Alert>
  );
}

/**
 * The server-compiled validators of this form's schema (the event's patched one when there is
 * one): a same-origin module named by its content hash, so the CSP needs no eval and a browser
 * loads each version once.
 */
export function useServedValidators(url: string | undefined) {
  return useSWR(url ? ['validators', url] : null, async () => instantiateValidators((await import(/* @vite-ignore */ url!)) as ValidatorModule), { revalidateOnFocus: false });
}

/** A form as the server serves it: enough to render it as an exhibitor of one event sees it. */
export interface FormViewSource {
  formId: string;
  definition: FormDefinition;
  schema: Record<string, unknown>;
  ui: Record<string, unknown>;
  context: FormContext;
  /** The form's own strings (forms.<id>) by language, as the server has them now. */
  strings: Record<string, Record<string, unknown>>;
  /** V2 V3: the rules of the upload purposes its file fields name (forms.yaml `uploads:`); none = the server alone judges. */
  uploads?: UploadRules;
}

/**
 * What rjsf renders a form with, in the language of `i18n`: the translated UI schema (flags that
 * are off hide their fields; `lockedFields` are read-only), the precompiled validator of the exact
 * schema, translated errors and rjsf's own strings. With `liveTexts`, its fields also name the keys
 * of their texts, read live under a LiveTextsContext (the form editor's preview).
 */
export function formView(
  source: FormViewSource,
  validateFns: unknown,
  t: TFunction,
  i18n: I18n,
  lockedFields: ReadonlySet<string> = new Set(),
  options: { liveTexts?: boolean } = {},
) {
  const { formId, definition, context } = source;
  // The form's labels come with it: a label changed or added while the portal runs wins over the build's.
  const strings = source.strings[i18n.language];
  if (strings) i18n.addResourceBundle(i18n.language, 'translation', { forms: { [formId]: strings } }, true, true);
  setFormContext(context);
  const schema = source.schema as RJSFSchema;
  const shown = displayUi(source.ui, source.schema, formId, t, context.flags, helpParams(definition), { liveTexts: options.liveTexts });
  const ui =
    lockedFields.size === 0
      ? shown
      : Object.fromEntries([...Object.entries(shown), ...[...lockedFields].map((field) => [field, { ...objectOrEmpty(shown[field]), 'ui:readonly': true }])]);
  const formContext: RuntimeFormContext = { quotas: context.quotas, fee: definition.fee, uploads: source.uploads ?? {}, label: (key) => t(key) };
  return {
    schema,
    // The form's title is the page's (title bar): not repeated above the fields.
    ui: { ...ui, 'ui:options': { ...objectOrEmpty(ui['ui:options']), label: false } },
    formContext,
    validator: createPrecompiledValidator(validateFns as never, schema),
    transformErrors: translateErrors(schema, t, context.flags),
    customValidate: markDuplicates(source.schema, t),
    translateString: rjsfStrings(t, (key) => i18n.exists(key)),
  };
}
