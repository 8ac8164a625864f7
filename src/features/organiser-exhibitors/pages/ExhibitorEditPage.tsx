import { apiKeyMatches } from '../../../lib/use-api';
import { useMemo, useState } from 'react';
import { Alert } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router-dom';
import useSWR, { mutate } from 'swr';
import { exhibitorProblems, newExhibitorInput } from '../../../engine/organiser-exhibitors';
import { consoleFormSchema } from '../../../engine/schemas/console-forms';
import { exhibitorInputSchema, type ExhibitorInput } from '../../../engine/schemas/exhibitor';
import { fromEventLocal, toEventLocal } from '../../../engine/organiser-events';
import { EntityEditForm } from '../../../components/form-runtime/EntityEditForm';
import { PageLoading } from '../../../components/PageLoading';
import { exhibitorValidators } from '../../../generated/entity-validators';
import { typedApi } from '../../../lib/api';
import { definedValues, type ApiData } from '../../../lib/typed-api';
import { useAccountInfo } from '../../../lib/session';
import { showToast } from '../../../lib/toast';
import { exhibitorUi } from '../exhibitor-ui';

// Spec §3, O2: every field of an exhibitor's account, from the exhibitor schema (the one the
// server's route checks) rendered by the form runtime (exhibitor-ui.ts says how). Deadlines are
// typed in event time.

type Vocabulary = ApiData<'GET', '/organiser/vocabulary'>;

const EXHIBITOR_SCHEMA = consoleFormSchema(exhibitorInputSchema);

/** The exhibitor as the form edits it: deadlines as event-local "YYYY-MM-DDTHH:MM" (K2), turned into instants on save. */
function editedOf(input: ExhibitorInput, offset: number): ExhibitorInput {
  return { ...input, deadlines: Object.fromEntries(Object.entries(input.deadlines).map(([name, at]) => [name, toEventLocal(at, offset)])) };
}

function inputOf(edited: ExhibitorInput, offset: number): ExhibitorInput {
  return { ...edited, deadlines: Object.fromEntries(Object.entries(definedValues(edited.deadlines)).map(([name, local]) => [name, fromEventLocal(local, offset) || local])) };
}

/** The account as read, without what the save does not take (its id, status and forms). */
function editableOf(existing: ApiData<'GET', '/organiser/exhibitors/{id}'>): ExhibitorInput {
  const { id: _id, status: _status, forms: _forms, ...input } = existing;
  return { ...input, flags: definedValues(input.flags), quotas: definedValues(input.quotas), deadlines: definedValues(input.deadlines) };
}

function Form({ id, initial, vocabulary, offset }: { id: number | null; initial: ExhibitorInput; vocabulary: Vocabulary; offset: number }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [data, setData] = useState(() => editedOf(initial, offset));
  const ui = useMemo(() => exhibitorUi(vocabulary, offset, t), [vocabulary, offset, t]);

  const save = async (edited: ExhibitorInput) => {
    const input = inputOf(edited, offset);
    if (id === null) await typedApi.post('/organiser/exhibitors', { body: input, silent: true });
    else await typedApi.put('/organiser/exhibitors/{id}', { path: { id }, body: input, silent: true });
    // The list may be cached from a moment ago (SWR dedupes within 2 s): read it again first.
    await mutate(apiKeyMatches('/organiser/exhibitors'));
    showToast('success', t('success.saved'));
    navigate('/organiser/exhibitors');
  };

  return (
    <EntityEditForm
      schema={EXHIBITOR_SCHEMA}
      validators={exhibitorValidators}
      ui={ui}
      data={data}
      onChange={setData}
      check={(edited) => exhibitorProblems(inputOf(edited, offset), vocabulary, null)}
      save={save}
      onCancel={() => navigate('/organiser/exhibitors')}
    />
  );
}

/** /organiser/exhibitors/edit (new, with the event's defaults) or ?id=… (an account of the current event). */
export default function ExhibitorEditPage() {
  const [params] = useSearchParams();
  const raw = params.get('id');
  const id = raw && /^\d+$/.test(raw) ? Number(raw) : null;
  const { data: account } = useAccountInfo();
  const { data: vocabulary, error: vocabularyError } = useSWR('/organiser/vocabulary', () => typedApi.get('/organiser/vocabulary'));
  const { data: current } = useSWR('/organiser/current-event', () => typedApi.get('/organiser/current-event'));
  const { data: event } = useSWR(current ? `/organiser/events/${current.id}` : null, () => typedApi.get('/organiser/events/{id}', { path: { id: current!.id } }));
  const { data: existing, error } = useSWR(id === null ? null : `/organiser/exhibitors/${id}`, () => typedApi.get('/organiser/exhibitors/{id}', { path: { id: id! } }));
  const failure = vocabularyError ?? error;
  if (failure) return <Alert severity="error">{failure.message}</Alert>;
  const offset = event?.utcOffsetMinutes ?? account?.utcOffsetMinutes ?? 0;
  if (!vocabulary || (id !== null && !existing) || (id === null && !event)) return <PageLoading />;
  const initial: ExhibitorInput = existing ? editableOf(existing) : newExhibitorInput({ modules: event!.defaultModules, flags: definedValues(event!.defaultFlags) });
  return <Form key={id ?? 'new'} id={id} initial={initial} vocabulary={vocabulary} offset={offset} />;
}
