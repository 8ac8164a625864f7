import { memo, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { Alert, Box, Button, MenuItem, Paper, Stack, TextField, Typography } from '@mui/material';
import type CoreForm from '@rjsf/core';
import Form from '@rjsf/mui';
import type { RJSFValidationError } from '@rjsf/utils';
import { I18nextProvider, useTranslation } from 'react-i18next';
import useSWR from 'swr';
import type { FormContext } from '../../../engine/forms/context';
import type { FormDefinition } from '../../../engine/forms/definitions';
import { setFormContext } from '../../../engine/forms/rules';
import { INTL_LOCALE, LANGUAGE_OPTIONS, type Language } from '../../../engine/language';
import { PageLoading } from '../../../components/PageLoading';
import { previewTranslatorFor } from '../../../lib/i18n';
import { share } from '../../../components/form-runtime/share';
import { createLiveTexts, LiveTextsContext } from '../../../components/form-runtime/live-texts';
import { previewStrings } from './preview-overlay';
import { DEFAULT_FORM_STATE, fields, formView, ProblemSummary, templates, useServedValidators, widgets } from '../../../components/form-runtime/form-view';

// F11: the draft as the event's exhibitors would get it, rendered by the exhibitor's own form
// runtime (the gallery's rendering), empty and editable, with "try submitting" listing the
// messages an exhibitor would be shown. Nothing is saved.

export interface PreviewSource {
  definition: FormDefinition;
  context: FormContext;
  schema: Record<string, unknown>;
  ui: Record<string, unknown>;
  /** The form's own strings (the forms.<formId> subtree) by language. */
  strings: Record<string, Record<string, unknown>>;
  validatorUrl: string;
}

/** The keys whose text differs between `before` and `after` (one missing from either included). */
function changedKeys(before: Record<string, string> | undefined, after: Record<string, string> | undefined): Set<string> {
  const changed = new Set<string>();
  for (const key of Object.keys(before ?? {})) if (before![key] !== after?.[key]) changed.add(key);
  for (const key of Object.keys(after ?? {})) if (before?.[key] !== after![key]) changed.add(key);
  return changed;
}

/**
 * The editor's texts of the shown language laid over the server's strings, read live by the
 * preview's fields: typing renders again only the fields showing the text typed (the form handed
 * to rjsf stays the same objects, so rjsf rebuilds nothing).
 */
function PreviewForm({ source, texts }: { source: PreviewSource; texts: Record<string, string> | undefined }) {
  const { i18n } = useTranslation();
  const store = useMemo(() => createLiveTexts((entry) => String(i18n.t(entry.key, entry.params as never))), [i18n]);
  const formId = source.definition.id;
  const shown = useRef<{ source: PreviewSource; texts: Record<string, string> | undefined } | null>(null);
  useLayoutEffect(() => {
    const language = i18n.language as Language;
    const strings = previewStrings(formId, source.strings as Record<string, Record<string, unknown>>, { [language]: texts }, language);
    if (strings[language]) i18n.addResourceBundle(language, 'translation', { forms: { [formId]: strings[language] } }, true, true);
    // Typing changes one text (the server's preview and the other texts stay): only the texts of the
    // keys typed are translated again, not every text the preview shows.
    const last = shown.current;
    shown.current = { source, texts };
    store.refresh(last?.source === source ? changedKeys(last.texts, texts) : undefined);
  }, [store, i18n, formId, source, texts]);
  return (
    <LiveTextsContext.Provider value={store}>
      <PreviewBody source={source} />
    </LiveTextsContext.Provider>
  );
}

/** The form as the server last previewed it: rendered again when the server's preview changes, not while typing. */
const PreviewBody = memo(function PreviewBody({ source }: { source: PreviewSource }) {
  const { t, i18n } = useTranslation();
  const formId = source.definition.id;
  const { data: validateFns, error } = useServedValidators(source.validatorUrl);
  // The server's next preview of the same schema (its answer to each save) keeps the validator and
  // the schema objects, and every part of the UI schema that did not change, so that rjsf renders
  // again only the fields whose texts changed, not the whole form (a new validator is a new form to
  // rjsf). When only its texts changed (the schema and UI schema are the same), the form stays as it
  // is: its fields read their texts live (PreviewForm adds the server's texts under the editor's).
  const previous = useRef<{ validateFns: unknown; source: PreviewSource; view: ReturnType<typeof formView> } | null>(null);
  const view = useMemo(() => {
    if (!validateFns) return null;
    const last = previous.current;
    const sameForm = last !== null && last.validateFns === validateFns && share(last.view.schema, source.schema) === last.view.schema;
    if (sameForm && share(last.source.ui, source.ui) === last.source.ui && last.source.context === source.context && last.source.definition === source.definition) return last.view;
    const schema = sameForm ? last.view.schema : source.schema;
    const made = formView({ formId, definition: source.definition, schema, ui: source.ui, context: source.context, strings: source.strings }, validateFns, t, i18n, undefined, {
      liveTexts: true,
    });
    const view = sameForm ? { ...made, validator: last.view.validator, ui: share(last.view.ui, made.ui) } : made;
    previous.current = { validateFns, source, view };
    return view;
  }, [validateFns, formId, source, t, i18n]);
  const formRef = useRef<CoreForm>(null);
  const [attempt, setAttempt] = useState<{ problems: RJSFValidationError[]; count: number } | null>(null);
  const trySubmit = () => {
    setFormContext(source.context);
    if (formRef.current?.validateForm()) setAttempt((last) => ({ problems: [], count: (last?.count ?? 0) + 1 }));
  };
  return (
    <>
      {error && <Alert severity="error">{(error as Error).message}</Alert>}
      {attempt && attempt.problems.length > 0 && <ProblemSummary problems={attempt.problems} refusal={attempt.count} />}
      {attempt && attempt.problems.length === 0 && (
        <Alert severity="success" role="status" sx={{ mb: 2 }}>
          {t('formGallery.accepted')}
        </Alert>
      )}
      {view ? (
        <Form
          ref={formRef}
          schema={view.schema}
          uiSchema={view.ui}
          formContext={view.formContext}
          validator={view.validator}
          fields={fields}
          widgets={widgets}
          templates={templates}
          transformErrors={view.transformErrors}
          customValidate={view.customValidate as never}
          translateString={view.translateString}
          experimental_defaultFormStateBehavior={DEFAULT_FORM_STATE}
          showErrorList={false}
          noHtml5Validate
          onError={(problems) => setAttempt((last) => ({ problems, count: (last?.count ?? 0) + 1 }))}
          onSubmit={() => setAttempt((last) => ({ problems: [], count: (last?.count ?? 0) + 1 }))}
        >
          <Box sx={{ display: 'flex', gap: 2, mt: 2 }}>
            <Button type="button" variant="contained" onClick={trySubmit}>
              {t('formGallery.trySubmit')}
            </Button>
          </Box>
        </Form>
      ) : (
        !error && <PageLoading />
      )}
    </>
  );
});

/** The preview's heading and its language (not rendered again while the previewed texts change). */
const PreviewHeading = memo(function PreviewHeading({ language, onLanguage, saving }: { language: Language; onLanguage: (language: Language) => void; saving: boolean }) {
  const { t } = useTranslation();
  return (
    <Stack direction="row" spacing={2} sx={{ mb: 2, alignItems: 'center' }}>
      <Typography variant="h6" component="h2" sx={{ flex: 1 }}>
        {t('formEditor.preview')}
      </Typography>
      {saving && (
        <Typography variant="caption" role="status">
          {t('formEditor.updating')}
        </Typography>
      )}
      <TextField
        select
        size="small"
        label={t('formEditor.previewLanguage')}
        value={language}
        onChange={(event) => onLanguage(event.target.value as Language)}
        sx={{ minWidth: 140 }}
      >
        {LANGUAGE_OPTIONS.map((option) => (
          <MenuItem key={option.code} value={option.code} lang={INTL_LOCALE[option.code]}>
            {option.label}
          </MenuItem>
        ))}
      </TextField>
    </Stack>
  );
});

export function EditorPreview({
  source,
  texts,
  language,
  onLanguage,
  saving,
  behind,
}: {
  /** The server's last preview (the published form until a save answers one). */
  source: PreviewSource | null;
  /** The editor's texts of the shown language (full keys), shown at once over the server's. */
  texts: Record<string, string> | undefined;
  language: Language;
  onLanguage: (language: Language) => void;
  saving: boolean;
  /** The draft has problems: the preview shows the last form that had none. */
  behind: boolean;
}) {
  const { t } = useTranslation();
  const { data: translator } = useSWR(['formEditorTranslator', language], () => previewTranslatorFor(language), { revalidateOnFocus: false });
  return (
    <Paper sx={{ p: 2 }} aria-label={t('formEditor.preview')} component="section">
      <PreviewHeading language={language} onLanguage={onLanguage} saving={saving} />
      {behind && (
        <Alert severity="info" sx={{ mb: 2 }}>
          {t('formEditor.previewBehind')}
        </Alert>
      )}
      {source && translator ? (
        <I18nextProvider i18n={translator}>
          <Box lang={INTL_LOCALE[language]}>
            {/* A new form (another schema, hence another validator) starts a new preview: no attempt carried over. Changed
                texts render the same preview again, keeping what was entered in it. */}
            <PreviewForm key={`${source.validatorUrl}/${language}`} source={source} texts={texts} />
          </Box>
        </I18nextProvider>
      ) : (
        <PageLoading />
      )}
    </Paper>
  );
}
