import { useMemo, useRef, useState } from 'react';
import { Alert, Box, Button, MenuItem, Paper, Stack, TextField, Typography } from '@mui/material';
import type CoreForm from '@rjsf/core';
import Form from '@rjsf/mui';
import type { RJSFValidationError } from '@rjsf/utils';
import { I18nextProvider, useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import useSWR from 'swr';
import type { FormContext } from '../../../engine/forms/context';
import { listTitleOf, sampleData, type FieldChange } from '../../../engine/forms/gallery';
import { setFormContext } from '../../../engine/forms/rules';
import { INTL_LOCALE, isLanguage, LANGUAGE_OPTIONS, type Language } from '../../../engine/language';
import { PageLoading } from '../../../components/PageLoading';
import { useApi } from '../../../lib/use-api';
import { definedValues, type ApiData } from '../../../lib/typed-api';
import { previewTranslatorFor } from '../../../lib/i18n';
import { DEFAULT_FORM_STATE, fields, formView, ProblemSummary, templates, useServedValidators, widgets } from '../../../components/form-runtime/form-view';
import { withoutHidden } from '../../../components/form-runtime/display';

// The organiser's form gallery. Any form of the set in use, for any of the
// organisation's events, in any language, rendered by the exhibitor's own form runtime (read-only,
// filled with sample data or empty), a "try submitting" that lists the messages an exhibitor would
// get, and what the event's patch changes in the base form. The choice is in the address, so a
// link shows a colleague the same thing. Nothing is saved.

type GalleryAnswer = ApiData<'GET', '/organiser/forms/gallery/{id}'>;

/** The preview as the page reads it: the answer with its open objects read as the engine's types. */
type GalleryPreview = Omit<GalleryAnswer, 'context' | 'strings' | 'changes'> & {
  context: FormContext;
  strings: Record<string, Record<string, unknown>>;
  changes: FieldChange[];
};

function fieldChangeOf({ kind, path, title, from, to }: GalleryAnswer['changes'][number]): FieldChange {
  return kind === 'relabelled' ? { kind, path, from: from ?? null, to: to ?? null } : { kind, path, title: title ?? null };
}

function previewOf(answer: GalleryAnswer): GalleryPreview {
  return {
    ...answer,
    context: { flags: definedValues(answer.context.flags), quotas: definedValues(answer.context.quotas) },
    strings: definedValues(answer.strings),
    changes: answer.changes.map(fieldChangeOf),
  };
}

type Fill = 'sample' | 'empty';

type Node = Record<string, unknown>;

/** One line of the difference, in the preview's language: "Last name (in Badges) removed". */
function ChangeLine({ change, schema }: { change: FieldChange; schema: Node }) {
  const { t } = useTranslation();
  const name = (title: string | null) => (title ? t(title) : t('formGallery.untitled', { path: change.path }));
  const list = listTitleOf(schema, change.path);
  const field = (title: string | null) => (list ? t('formGallery.inList', { field: name(title), list: t(list) }) : name(title));
  if (change.kind === 'relabelled') return <li>{t('formGallery.change.relabelled', { from: field(change.from), to: name(change.to) })}</li>;
  return <li>{t(`formGallery.change.${change.kind}`, { field: field(change.title) })}</li>;
}

/** The form as the event's exhibitors see it, in the translator's language, and what its patch changes. */
function Preview({ preview, fill }: { preview: GalleryPreview; fill: Fill }) {
  const { t, i18n } = useTranslation();
  const formId = preview.definition.id;
  const { data: validateFns, error } = useServedValidators(preview.validator.url);
  const view = useMemo(() => (validateFns ? formView({ formId, ...preview }, validateFns, t, i18n) : null), [validateFns, formId, preview, t, i18n]);
  const initial = useMemo(
    () => (fill === 'sample' ? withoutHidden(preview.schema, sampleData(preview.schema), preview.context.flags) : {}),
    [fill, preview.schema, preview.context.flags],
  );
  const formRef = useRef<CoreForm>(null);
  /** The last submit attempt: the problems an exhibitor would be shown (none = accepted), and how many attempts. */
  const [attempt, setAttempt] = useState<{ problems: RJSFValidationError[]; count: number } | null>(null);

  const trySubmit = () => {
    // The rules read the exhibitor's context (flags, quotas) at validation time.
    setFormContext(preview.context);
    if (formRef.current?.validateForm()) setAttempt((last) => ({ problems: [], count: (last?.count ?? 0) + 1 }));
  };

  return (
    <Stack spacing={2} lang={(isLanguage(i18n.language) ? INTL_LOCALE[i18n.language] : undefined) ?? i18n.language}>
      <Paper sx={{ p: 2 }}>
        <Typography variant="h6" component="h2" sx={{ mb: 1 }}>
          {t('formGallery.difference', { event: preview.event.name })}
        </Typography>
        {preview.changes.length === 0 ? (
          <Typography variant="body2">{t('formGallery.noPatch', { event: preview.event.name })}</Typography>
        ) : (
          <Box component="ul" sx={{ m: 0, pl: 3 }}>
            {preview.changes.map((change) => (
              <ChangeLine key={`${change.kind}:${change.path}`} change={change} schema={preview.schema} />
            ))}
          </Box>
        )}
      </Paper>
      <Paper sx={{ p: 2 }}>
        <Typography variant="h6" component="h2" sx={{ mb: 2 }}>
          {t('formGallery.preview')} · {t(preview.definition.title)}
        </Typography>
        {error && <Alert severity="error">{error instanceof Error ? error.message : String(error)}</Alert>}
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
            formData={initial}
            validator={view.validator}
            fields={fields}
            widgets={widgets}
            templates={templates}
            transformErrors={view.transformErrors}
            customValidate={view.customValidate}
            translateString={view.translateString}
            experimental_defaultFormStateBehavior={DEFAULT_FORM_STATE}
            readonly
            showErrorList={false}
            noHtml5Validate
            onError={(problems) => setAttempt((last) => ({ problems, count: (last?.count ?? 0) + 1 }))}
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
      </Paper>
    </Stack>
  );
}

export default function FormGalleryPage() {
  const { t, i18n } = useTranslation();
  const [params, setParams] = useSearchParams();
  // Polled like the Forms in use page: a form file saved while the organiser looks is shown within seconds.
  const { data: index } = useApi('GET', '/organiser/forms/gallery', undefined, { refreshInterval: 5000 });
  const formId = index?.forms.find((form) => form.id === params.get('form'))?.id ?? index?.forms[0]?.id;
  const event = index?.events.find((candidate) => candidate.code === params.get('event')) ?? index?.events.find((candidate) => candidate.current) ?? index?.events[0];
  // Not `lang`/`language`: those choose the whole portal's language.
  const chosen = params.get('formLanguage');
  const language: Language = isLanguage(chosen) ? chosen : isLanguage(i18n.language) ? i18n.language : 'en';
  const fill: Fill = params.get('data') === 'empty' ? 'empty' : 'sample';
  // Read again when the form set in use changes (its version is part of the key).
  const { data: answer, error } = useApi(
    'GET',
    '/organiser/forms/gallery/{id}',
    { path: { id: formId ?? '' }, query: { event: event?.code ?? '' } },
    { enabled: Boolean(formId && event && index), vary: [index?.version], revalidateOnFocus: false },
  );
  const preview = useMemo(() => (answer ? previewOf(answer) : undefined), [answer]);
  const { data: translator } = useSWR(['formGalleryTranslator', language], () => previewTranslatorFor(language), { revalidateOnFocus: false });

  if (!index) return <PageLoading />;
  const choose = (name: string, value: string) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        next.set(name, value);
        return next;
      },
      { replace: true },
    );

  return (
    <Stack spacing={2}>
      <Paper sx={{ p: 2 }}>
        <Typography variant="body2" sx={{ mb: 2 }}>
          {t('formGallery.explain')}
        </Typography>
        {index.events.length === 0 ? (
          <Alert severity="info">{t('formGallery.noEvents')}</Alert>
        ) : (
          <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: 'repeat(2, minmax(0, 1fr))', lg: 'repeat(4, minmax(0, 1fr))' } }}>
            <TextField select label={t('formGallery.form')} value={formId ?? ''} onChange={(e) => choose('form', e.target.value)} size="small">
              {index.forms.map((form) => (
                <MenuItem key={form.id} value={form.id}>
                  {event?.patched.includes(form.id) ? t('formGallery.changedForEvent', { form: t(form.title) }) : t(form.title)}
                </MenuItem>
              ))}
            </TextField>
            <TextField select label={t('formGallery.event')} value={event?.code ?? ''} onChange={(e) => choose('event', e.target.value)} size="small">
              {index.events.map((candidate) => (
                <MenuItem key={candidate.code} value={candidate.code}>
                  {candidate.current ? t('formGallery.currentEvent', { event: candidate.name }) : candidate.name}
                </MenuItem>
              ))}
            </TextField>
            <TextField select label={t('formGallery.language')} value={language} onChange={(e) => choose('formLanguage', e.target.value)} size="small">
              {LANGUAGE_OPTIONS.map((option) => (
                <MenuItem key={option.code} value={option.code} lang={INTL_LOCALE[option.code]}>
                  {option.label}
                </MenuItem>
              ))}
            </TextField>
            <TextField select label={t('formGallery.data')} value={fill} onChange={(e) => choose('data', e.target.value)} size="small">
              <MenuItem value="sample">{t('formGallery.dataSample')}</MenuItem>
              <MenuItem value="empty">{t('formGallery.dataEmpty')}</MenuItem>
            </TextField>
          </Box>
        )}
      </Paper>
      {error && <Alert severity="error">{error.message}</Alert>}
      {preview && translator ? (
        <I18nextProvider i18n={translator}>
          {/* A new choice starts a new preview: no attempt or data carried over. */}
          <Preview key={`${preview.formsVersion}/${preview.definition.id}/${preview.event.code}/${language}/${fill}`} preview={preview} fill={fill} />
        </I18nextProvider>
      ) : (
        index.events.length > 0 && !error && <PageLoading />
      )}
    </Stack>
  );
}
