import { Alert, Box, MenuItem, Paper, Stack, TextField, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import useSWR from 'swr';
import type { FormContext } from '../../../engine/forms/context';
import { PageLoading } from '../../../components/PageLoading';
import { typedApi } from '../../../lib/api';
import { definedValues } from '../../../lib/typed-api';
import { useApi } from '../../../lib/use-api';
import { editorApi } from '../editor/editor-api';
import { FormEditor, type PublishedForm } from '../editor/FormEditor';

// F11: the organiser's form editor. Pick one of the organisation's events and a form; the editor
// works on that event's patch of the form (never on the base form other events use). The choice is
// in the address, so a link opens the same form of the same event.

/** Upload purposes a form's file fields name (the purposes a new file question can take). */
function purposesOf(schema: unknown, into = new Set<string>()): Set<string> {
  if (Array.isArray(schema)) for (const child of schema) purposesOf(child, into);
  else if (schema && typeof schema === 'object') {
    const node = schema as Record<string, unknown>;
    if (typeof node.file === 'string') into.add(node.file);
    for (const child of Object.values(node)) purposesOf(child, into);
  }
  return into;
}

async function fetchPublished(formId: string, event: string, definitionIndex: number): Promise<PublishedForm> {
  const answer = await typedApi.get('/organiser/forms/gallery/{id}', { path: { id: formId }, query: { event } });
  return {
    definition: answer.definition,
    definitionIndex,
    context: { flags: definedValues(answer.context.flags), quotas: definedValues(answer.context.quotas) } satisfies FormContext,
    schema: answer.schema,
    ui: answer.ui,
    strings: definedValues(answer.strings),
    validatorUrl: answer.validator.url,
  };
}

export default function FormEditorPage() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const { data: index, error: indexError } = useApi('GET', '/organiser/forms/gallery');
  // The editor's routes name an event by its id, the gallery by its code.
  const { data: events } = useApi('GET', '/organiser/events');
  const formIndex = index?.forms.findIndex((form) => form.id === params.get('form')) ?? -1;
  const form = index?.forms[formIndex >= 0 ? formIndex : 0];
  const definitionIndex = formIndex >= 0 ? formIndex : 0;
  const event = index?.events.find((candidate) => candidate.code === params.get('event')) ?? index?.events.find((candidate) => candidate.current) ?? index?.events[0];
  const { data: published, error } = useSWR(
    form && event && index ? ['formEditorPublished', form.id, event.code, index.version] : null,
    () => fetchPublished(form!.id, event!.code, definitionIndex),
    { revalidateOnFocus: false },
  );

  if (indexError) return <Alert severity="error">{indexError.message}</Alert>;
  if (!index || !events) return <PageLoading />;
  const eventId = events.find((candidate) => candidate.code === event?.code)?.id;
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
          {t('formEditor.explain')}
        </Typography>
        {index.events.length === 0 ? (
          <Alert severity="info">{t('formGallery.noEvents')}</Alert>
        ) : (
          <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: 'repeat(2, minmax(0, 1fr))' } }}>
            <TextField select label={t('formGallery.event')} value={event?.code ?? ''} onChange={(change) => choose('event', change.target.value)} size="small">
              {index.events.map((candidate) => (
                <MenuItem key={candidate.code} value={candidate.code}>
                  {candidate.current ? t('formGallery.currentEvent', { event: candidate.name }) : candidate.name}
                </MenuItem>
              ))}
            </TextField>
            <TextField select label={t('formGallery.form')} value={form?.id ?? ''} onChange={(change) => choose('form', change.target.value)} size="small">
              {index.forms.map((candidate) => (
                <MenuItem key={candidate.id} value={candidate.id}>
                  {event?.patched.includes(candidate.id) ? t('formGallery.changedForEvent', { form: t(candidate.title) }) : t(candidate.title)}
                </MenuItem>
              ))}
            </TextField>
          </Box>
        )}
      </Paper>
      {error && <Alert severity="error">{(error as Error).message}</Alert>}
      {form && event && eventId !== undefined && published ? (
        <FormEditor key={`${event.code}/${form.id}`} api={editorApi} eventId={eventId} formId={form.id} published={published} purposes={[...purposesOf(published.schema)]} />
      ) : (
        index.events.length > 0 && !error && <PageLoading />
      )}
    </Stack>
  );
}
