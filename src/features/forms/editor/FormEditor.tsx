import type { FormPatch } from '../../../engine/schemas/form-patch';
import { lazy, memo, Suspense, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Alert, Box, Button, Paper, Stack, Tab, Tabs, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import useSWR from 'swr';
import type { FormContext } from '../../../engine/forms/context';
import type { FormDefinition } from '../../../engine/forms/definitions';
import {
  draftStrings,
  missingTranslations,
  stringsToSave,
  patchedFiles,
  problemsByQuestion,
  touchedReferences,
  type EditOutcome,
  type EditorForm,
  type PatchProblem,
  type Strings,
} from '../../../engine/forms/patch-editor';
import { isLanguage, type Language } from '../../../engine/language';
import { uniqueListings, withListings } from '../../../engine/forms/patch-editor-listings';
import type { OptionalListing } from '../../../engine/schemas/optional-listing';
import { PageLoading } from '../../../components/PageLoading';
import type { DraftAnswer, EditorApi } from './editor-api';
import { EditorPreview, type PreviewSource } from './EditorPreview';
import { PublishPanel } from './PublishPanel';
import { QuestionList, type QuestionListContext } from './QuestionList';
import { TranslationsPanel } from './TranslationsPanel';
import { VersionsPanel } from './VersionsPanel';

// CodeMirror is loaded when the JSON tab is first opened.
const JsonPatchTab = lazy(() => import('./JsonPatchTab'));

// F11: one form of one event in the editor. The organiser's changes are operations of the patch
// editor on the event's patch; each one is saved as the draft shortly after (debounced), and the
// server answers the draft's problems and the form as exhibitors would get it, which the preview
// shows. Publishing and the versions' history are below.

/** How long after the last change the draft is saved (and the preview follows). */
export const DRAFT_DEBOUNCE_MS = 400;

/** What the page knows of the published form: its declaration and the event's context, and how it is served now. */
export interface PublishedForm {
  definition: FormDefinition;
  /** Position of the form in forms.yaml (pointers into forms.yaml name it). */
  definitionIndex: number;
  context: FormContext;
  schema: Record<string, unknown>;
  ui: Record<string, unknown>;
  strings: Record<string, Record<string, unknown>>;
  validatorUrl: string;
}

interface Working {
  patch: FormPatch | null;
  strings: Strings;
  basedOn: number;
  /** Names the draft lists under forms.yaml entries' `optional:` (the fix for a removed question forms.yaml names). */
  listings: OptionalListing[];
  /** Changed by the organiser since loading (a loaded draft is not saved again until changed). */
  changed: boolean;
}

type EditorTab = 'questions' | 'translations' | 'json';

// Typing in the editor renders the editor and its preview again on every key: the parts that do not
// show what is typed (the tabs, publishing, the versions' history) are kept out of that.
const StablePublishPanel = memo(PublishPanel);
const StableVersionsPanel = memo(VersionsPanel);
const EditorTabs = memo(function EditorTabs({ tab, onTab }: { tab: EditorTab; onTab: (tab: EditorTab) => void }) {
  const { t } = useTranslation();
  return (
    <Tabs value={tab} onChange={(_, value: EditorTab) => onTab(value)} aria-label={t('formEditor.tabs')} sx={{ mb: 1 }}>
      <Tab value="questions" label={t('formEditor.questions')} />
      <Tab value="translations" label={t('formEditor.translations')} />
      <Tab value="json" label={t('formEditor.editAsJson')} />
    </Tabs>
  );
});

export function FormEditor({ api, eventId, formId, published, purposes }: { api: EditorApi; eventId: number; formId: string; published: PublishedForm; purposes: string[] }) {
  const { t, i18n } = useTranslation();
  const [generation, setGeneration] = useState(0);
  const { data: source, error: loadError } = useSWR(['formEditor', eventId, formId, generation], () => api.load(eventId, formId), {
    revalidateOnFocus: false,
    // A reload after publishing keeps the page (and the publish panel's confirmation) in place.
    keepPreviousData: true,
  });
  const [working, setWorking] = useState<Working | null>(null);
  /** The last saved draft's problems, and its preview (none while the draft has problems or before the first save). */
  const [answer, setAnswer] = useState<{ problems: PatchProblem[]; preview: DraftAnswer['preview'] | null } | null>(null);
  const [saveError, setSaveError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const [tab, setTab] = useState<EditorTab>('questions');
  const [language, setLanguage] = useState<Language>(isLanguage(i18n.language) ? i18n.language : 'en');
  const [versionsRefresh, setVersionsRefresh] = useState(0);

  useEffect(() => {
    if (!source) return;
    setWorking({
      patch: source.draft?.patch ?? source.patch,
      strings: source.draft ? draftStrings(source.strings, source.draft.strings) : {},
      basedOn: source.draft?.basedOn ?? source.version.number,
      listings: source.draft?.listings ?? [],
      changed: false,
    });
    setAnswer(source.draft ? { problems: source.draft.problems, preview: null } : null);
  }, [source]);

  const formRef = useRef<EditorForm | null>(null);
  // The draft is saved shortly after the last change; a later change supersedes an answer still on its way.
  const sequence = useRef(0);
  useEffect(() => {
    if (!working?.changed) return;
    const mine = ++sequence.current;
    setSaving(true);
    const timer = window.setTimeout(async () => {
      try {
        const saved = await api.saveDraft(eventId, formId, {
          basedOn: working.basedOn,
          listings: working.listings,
          patch: working.patch,
          strings: stringsToSave({ ...formRef.current!, patch: working.patch, strings: working.strings }),
        });
        if (mine !== sequence.current) return;
        // A draft with problems has no validator: the preview stays on the last form that had one.
        setAnswer((last) => ({ problems: saved.problems, preview: saved.preview.validator ? saved.preview : (last?.preview ?? null) }));
        setSaveError(null);
      } catch (error) {
        if (mine === sequence.current) setSaveError((error as Error).message);
      } finally {
        if (mine === sequence.current) setSaving(false);
      }
    }, DRAFT_DEBOUNCE_MS);
    return () => window.clearTimeout(timer);
  }, [working, api, eventId, formId]);

  const form: EditorForm | null = useMemo(
    () => (source && working ? { formId, exhibitCode: source.exhibitCode, base: source.base, patch: working.patch, strings: working.strings, known: source.strings } : null),
    [source, working, formId],
  );
  formRef.current = form;

  // The server's last preview (the published form until a save answers one), memoised so that the
  // preview renders again only when it or the texts laid over it change.
  const previewBase: PreviewSource = useMemo(
    () =>
      answer?.preview
        ? {
            definition: published.definition,
            context: published.context,
            schema: answer.preview.schema,
            ui: answer.preview.ui,
            strings: answer.preview.strings as Record<string, Record<string, unknown>>,
            validatorUrl: answer.preview.validator!.url,
          }
        : published,
    [answer?.preview, published],
  );
  // The texts being typed show in the preview at once, laid over the server's last preview (its
  // answer to the save holds the same texts). Only the shown language's texts render it again.
  const shownTexts = working?.strings[language];

  const apply = useCallback(
    (outcome: EditOutcome, listed: OptionalListing[] = []): string | null => {
      if (!outcome.ok) return t(`formEditor.errors.${outcome.error.code}`, outcome.error.params);
      setWorking((current) =>
        current ? { ...current, patch: outcome.patch, strings: outcome.strings, listings: uniqueListings([...current.listings, ...listed]), changed: true } : current,
      );
      return null;
    },
    [t],
  );

  // The publish panel names questions in the editor's current texts; it asks for them through one
  // function for the editor's life, so that typing does not render the panel again.
  const labelOf = useRef<(key: string | null, fallback: string) => string>((_, fallback) => fallback);
  const currentLabel = useCallback((key: string | null, fallback: string) => labelOf.current(key, fallback), []);
  const onPublished = useCallback(() => {
    setVersionsRefresh((value) => value + 1);
    setAnswer(null);
    setGeneration((value) => value + 1);
  }, []);
  const onRolledBack = useCallback(() => setGeneration((value) => value + 1), []);

  if (loadError) return <Alert severity="error">{(loadError as Error).message}</Alert>;
  if (!source || !working || !form) return <PageLoading />;

  const files = patchedFiles(form.base, form.patch);
  // A file question offers every purpose forms.yaml declares, then any other the form's fields use.
  const offeredPurposes = [...new Set([...source.uploadPurposes, ...purposes])];
  const problems: PatchProblem[] = answer?.problems ?? [];
  const label = (key: string | null, fallback: string) =>
    key ? (form.strings[language]?.[key] ?? form.known[language]?.[key] ?? form.strings.en?.[key] ?? form.known.en?.[key] ?? fallback) : fallback;
  labelOf.current = label;
  const context: QuestionListContext = {
    form,
    files,
    apply,
    label,
    problems: problemsByQuestion(problems),
    missing: missingTranslations(form),
    touchedBy: (outcome) =>
      outcome.ok ? withListings(touchedReferences(published.definition, published.definitionIndex, form.base, patchedFiles(form.base, outcome.patch)), working.listings) : [],
    purposes: offeredPurposes,
  };
  const formProblems = context.problems.get('') ?? [];
  const discard = async () => {
    await api.discardDraft(eventId, formId);
    setAnswer(null);
    setGeneration((value) => value + 1);
  };

  return (
    <Stack spacing={2}>
      <Paper sx={{ p: 2 }}>
        <Stack direction="row" spacing={2} sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
          <Typography variant="body2" sx={{ flex: 1 }}>
            {t('formEditor.basedOn', { number: source.version.number, event: source.exhibitCode })}
          </Typography>
          <Typography variant="body2" role="status">
            {saving ? t('formEditor.saving') : working.changed || source.draft ? t('formEditor.draftSaved') : t('formEditor.noDraft')}
          </Typography>
          {(working.changed || source.draft) && (
            <Button size="small" onClick={discard}>
              {t('formEditor.discardDraft')}
            </Button>
          )}
        </Stack>
        {saveError && (
          <Alert severity="error" sx={{ mt: 1 }}>
            {saveError}
          </Alert>
        )}
        {problems.length > 0 && (
          <Alert severity="error" sx={{ mt: 1 }}>
            {t('formEditor.problemCount', { count: problems.length })}
          </Alert>
        )}
        {working.listings.length > 0 && (
          <Alert severity="info" sx={{ mt: 1 }}>
            {t('formEditor.listed', { names: working.listings.map((listing) => `${listing.name} (${listing.entry})`).join(', ') })}
          </Alert>
        )}
        {formProblems.map((problem, index) => (
          <Alert key={index} severity="error" sx={{ mt: 1 }}>
            {problem.path} {problem.message}
          </Alert>
        ))}
      </Paper>
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', lg: 'minmax(0, 1fr) minmax(0, 1fr)' }, alignItems: 'start' }}>
        <Box>
          <EditorTabs tab={tab} onTab={setTab} />
          {tab === 'questions' && <QuestionList container={[]} context={context} />}
          {tab === 'translations' && <TranslationsPanel form={form} apply={apply} />}
          {tab === 'json' && (
            <Suspense fallback={<PageLoading />}>
              <JsonPatchTab
                base={form.base}
                patch={form.patch}
                purposes={offeredPurposes}
                onPatch={(patch) => setWorking((current) => (current ? { ...current, patch, changed: true } : current))}
              />
            </Suspense>
          )}
        </Box>
        <EditorPreview source={previewBase} texts={shownTexts} language={language} onLanguage={setLanguage} saving={saving} behind={problems.length > 0} />
      </Box>
      <StablePublishPanel
        api={api}
        eventId={eventId}
        formId={formId}
        basedOn={working.basedOn}
        label={currentLabel}
        canPublish={!saving && problems.length === 0 && (working.changed || source.draft !== null)}
        onPublished={onPublished}
      />
      <StableVersionsPanel api={api} refresh={versionsRefresh} onRolledBack={onRolledBack} />
    </Stack>
  );
}
