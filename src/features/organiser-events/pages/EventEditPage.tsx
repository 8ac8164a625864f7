import { apiKeyMatches } from '../../../lib/use-api';
import { useEffect, useId, useMemo, useState } from 'react';
import { Alert, Box, Button, Checkbox, FormControlLabel, FormGroup, Paper, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import useSWR, { mutate } from 'swr';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { checkFile, FILE_TYPE_MIME } from '../../../engine/forms/files';
import { EVENT_LOGO_PATH, EVENT_LOGO_RULE, eventProblems, fromEventLocal, toEventLocal } from '../../../engine/organiser-events';
import { consoleFormSchema } from '../../../engine/schemas/console-forms';
import { eventInputSchema, type EventInput } from '../../../engine/schemas/event';
import { VISITOR_DIRECTORY_FIELDS, type VisitorDirectoryField } from '../../../engine/leads';
import { EntityEditForm } from '../../../components/form-runtime/EntityEditForm';
import { PageLoading } from '../../../components/PageLoading';
import { eventValidators } from '../../../generated/entity-validators';
import { typedApi } from '../../../lib/api';
import { loadUserInfo } from '../../../lib/session';
import { showToast } from '../../../lib/toast';
import { definedValues, type ApiData } from '../../../lib/typed-api';
import { useEvent, useVocabulary, type Vocabulary } from '../api';
import { eventUi } from '../event-ui';

// O2: every setting of an event. Deadlines are typed in event time; a rule broken
// (a deadline after the show, a closing before the opening…) shows beside its field, whether
// the page or the server found it. The fields are the event schema's (the one the server's route
// checks), rendered by the form runtime (event-ui.ts says how).

const EVENT_SCHEMA = consoleFormSchema(eventInputSchema);

/** The event as a new one starts. */
function emptyEvent(vocabulary: Vocabulary): EventInput {
  return {
    code: '',
    names: {},
    defaultLanguage: 'en',
    showDays: [{ date: '', opens: '10:00', closes: '18:00' }],
    utcOffsetMinutes: 480,
    venue: '',
    logoUrl: '',
    url: '',
    termsUrl: '',
    supportEmail: '',
    currency: 'MYR',
    settings: {},
    deadlines: {},
    defaultModules: vocabulary.modules,
    defaultFlags: {},
    defaultQuotas: {},
    reminderDays: [7, 1],
  };
}

/** The event as the form edits it: deadlines as event-local "YYYY-MM-DDTHH:MM" (K2), turned into instants on save (inputOf). */
function editedOf(event: ApiData<'GET', '/organiser/events/{id}'>): EventInput {
  // The event as read carries its id, which the save does not take (it answered "not valid").
  const { id: _id, ...input } = event;
  return {
    ...input,
    names: definedValues(input.names),
    settings: definedValues(input.settings),
    defaultFlags: definedValues(input.defaultFlags),
    defaultQuotas: definedValues(input.defaultQuotas),
    deadlines: Object.fromEntries(Object.entries(definedValues(input.deadlines)).map(([name, at]) => [name, toEventLocal(at, input.utcOffsetMinutes)])),
  };
}

function inputOf(edited: EventInput): EventInput {
  return {
    ...edited,
    deadlines: Object.fromEntries(Object.entries(definedValues(edited.deadlines)).map(([name, local]) => [name, fromEventLocal(local, edited.utcOffsetMinutes) || local])),
  };
}

function Section({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <Paper variant="outlined" component="section" aria-label={title} sx={{ p: 2, display: 'grid', gap: 2 }}>
      <Typography variant="h6" component="h2">
        {title}
      </Typography>
      {children}
    </Paper>
  );
}

/**
 * The event's logo uploaded to the portal (stored like every upload, checked here with the
 * server's rule before sending): the content policy shows only images the portal serves.
 */
function LogoUpload({ eventId, logoUrl, onUploaded }: { eventId: number | null; logoUrl: string; onUploaded: (logoUrl: string) => void }) {
  const { t } = useTranslation();
  const inputId = useId();
  const [problem, setProblem] = useState('');
  const [busy, setBusy] = useState(false);
  const upload = async (file: File) => {
    if (eventId === null) return;
    setProblem('');
    const [first] = checkFile(EVENT_LOGO_RULE, { name: file.name, bytes: new Uint8Array(await file.arrayBuffer()) });
    if (first) {
      setProblem(t(first.key, first.params));
      return;
    }
    setBusy(true);
    try {
      const body = new FormData();
      body.append('file', file);
      const answer = await typedApi.post('/organiser/events/{id}/logo', { path: { id: eventId }, body, silent: true });
      onUploaded(answer.logoUrl);
      await loadUserInfo();
      showToast('success', t('organiser.event.logoUploaded'));
    } catch (failure) {
      setProblem(failure instanceof Error ? failure.message : String(failure));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Box sx={{ display: 'flex', gap: 2, alignItems: 'center', flexWrap: 'wrap' }}>
      {logoUrl.startsWith(EVENT_LOGO_PATH) && <Box component="img" src={logoUrl} alt={t('organiser.event.logoPreview')} sx={{ maxHeight: 48, maxWidth: 160 }} />}
      <input
        id={inputId}
        type="file"
        accept={EVENT_LOGO_RULE.types.map((type) => FILE_TYPE_MIME[type]).join(',')}
        hidden
        disabled={eventId === null || busy}
        onChange={(event) => {
          const file = event.target.files?.[0];
          event.target.value = '';
          if (file) void upload(file);
        }}
      />
      <Button component="label" htmlFor={inputId} variant="outlined" size="small" disabled={eventId === null || busy}>
        {t('organiser.event.logoUpload')}
      </Button>
      {eventId === null && <Typography variant="body2">{t('organiser.event.logoAfterSave')}</Typography>}
      {problem && (
        <Alert severity="error" sx={{ width: '100%' }}>
          {problem}
        </Alert>
      )}
    </Box>
  );
}

function EventForm({ id, initial, vocabulary }: { id: number | null; initial: EventInput; vocabulary: Vocabulary }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [data, setData] = useState<EventInput>(initial);
  const ui = useMemo(() => eventUi(vocabulary, data, t), [vocabulary, data.defaultLanguage, data.utcOffsetMinutes, data.currency, t]);
  // LD1: the visitor fields exhibitors' scanners may keep offline (an existing event only).
  const directory = useSWR(id === null ? null : ['/organiser/events/{id}/visitor-directory', id], () =>
    typedApi.get('/organiser/events/{id}/visitor-directory', { path: { id: id! } }),
  );
  const [directoryFields, setDirectoryFields] = useState<VisitorDirectoryField[] | null>(null);
  const sharedFields = directoryFields ?? directory.data?.fields ?? [];

  const save = async (edited: EventInput) => {
    const input = inputOf(edited);
    if (id === null) await typedApi.post('/organiser/events', { body: input, silent: true });
    else {
      await typedApi.put('/organiser/events/{id}', { path: { id }, body: input, silent: true });
      if (directoryFields !== null) await typedApi.put('/organiser/events/{id}/visitor-directory', { path: { id }, body: { fields: directoryFields }, silent: true });
    }
    // The list may be cached from a moment ago (SWR dedupes within 2 s): read it again first.
    await Promise.all([loadUserInfo(), mutate(apiKeyMatches('/organiser/events'))]);
    showToast('success', t(id === null ? 'organiser.events.created' : 'organiser.events.saved'));
    navigate('/organiser/events');
  };

  return (
    <EntityEditForm
      schema={EVENT_SCHEMA}
      validators={eventValidators}
      ui={ui}
      data={data}
      onChange={setData}
      check={(edited) => eventProblems(inputOf(edited), vocabulary)}
      save={save}
      onCancel={() => navigate('/organiser/events')}
      stickyButtons
    >
      <Section title={t('organiser.event.logoPreview')}>
        <Typography variant="body2">{t('organiser.event.logoHelp')}</Typography>
        <LogoUpload eventId={id} logoUrl={data.logoUrl} onUploaded={(logoUrl) => setData((current) => ({ ...current, logoUrl }))} />
      </Section>

      {id !== null && (
        <Section title={t('organiser.event.visitorDirectory')}>
          <Typography variant="body2" color="text.secondary">
            {t('organiser.event.visitorDirectoryHelp')}
          </Typography>
          <FormGroup row>
            {VISITOR_DIRECTORY_FIELDS.map((field) => (
              <FormControlLabel
                key={field}
                label={t(`leads.field.${field === 'name' ? 'visitorName' : field}`)}
                control={
                  <Checkbox
                    checked={sharedFields.includes(field)}
                    disabled={!directory.data}
                    onChange={(event) => setDirectoryFields(VISITOR_DIRECTORY_FIELDS.filter((each) => (each === field ? event.target.checked : sharedFields.includes(each))))}
                  />
                }
              />
            ))}
          </FormGroup>
        </Section>
      )}
    </EntityEditForm>
  );
}

/** /organiser/events/edit (new) or /organiser/events/edit?id=… (one of the organisation's events). */
export default function EventEditPage() {
  const [params] = useSearchParams();
  const raw = params.get('id');
  const id = raw && /^\d+$/.test(raw) ? Number(raw) : null;
  const { data: vocabulary, error: vocabularyError } = useVocabulary();
  const { data: event, error } = useEvent(id);
  const [initial, setInitial] = useState<EventInput | null>(null);
  useEffect(() => {
    if (!vocabulary) return;
    if (id === null) setInitial(emptyEvent(vocabulary));
    else if (event) setInitial(editedOf(event));
  }, [vocabulary, event, id]);
  const failure = vocabularyError ?? error;
  if (failure) return <Alert severity="error">{failure.message}</Alert>;
  if (!vocabulary || !initial) return <PageLoading />;
  return <EventForm key={id ?? 'new'} id={id} initial={initial} vocabulary={vocabulary} />;
}
