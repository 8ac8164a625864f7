import { useState } from 'react';
import { Alert, Box, Button, Checkbox, FormControlLabel, FormGroup, Paper, TextField, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router-dom';
import useSWR, { mutate } from 'swr';
import { apiKeyMatches } from '../../../lib/use-api';
import { exhibitorProblems, newExhibitorInput } from '../../../engine/organiser-exhibitors';
import type { ExhibitorInput } from '../../../engine/schemas/exhibitor';
import { fromEventLocal, toEventLocal, type FieldProblems } from '../../../engine/organiser-events';
import { FlagLabel } from '../../../components/FlagLabel';
import { EventDateTimeField } from '../../../components/EventDateTimeField';
import { PageLoading } from '../../../components/PageLoading';
import { typedApi } from '../../../lib/api';
import { definedValues, type ApiData } from '../../../lib/typed-api';
import { ApiError } from '../../../lib/api-client';
import { useAccountInfo } from '../../../lib/session';
import { showToast } from '../../../lib/toast';

// Spec §3, O2: every field of an exhibitor's account. Empty quota and deadline fields
// mean "the event's value"; a filled one is this exhibitor's override.

type Vocabulary = ApiData<'GET', '/organiser/vocabulary'>;

const TEXT_FIELDS = ['code', 'name', 'legalName', 'boothNum', 'logoUrl', 'account', 'email', 'contactName'] as const;

function Form({ id, initial, vocabulary, offset }: { id: number | null; initial: ExhibitorInput; vocabulary: Vocabulary; offset: number }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [draft, setDraft] = useState(initial);
  const [quotas, setQuotas] = useState<Record<string, string>>(Object.fromEntries(Object.entries(initial.quotas).map(([k, v]) => [k, String(v)])));
  const [deadlines, setDeadlines] = useState<Record<string, string>>(Object.fromEntries(Object.entries(initial.deadlines).map(([k, v]) => [k, toEventLocal(v, offset)])));
  const [problems, setProblems] = useState<FieldProblems>({});
  const [busy, setBusy] = useState(false);
  const help = (field: string) => (problems[field] ? { error: true, helperText: t(problems[field]) } : {});

  const save = async () => {
    const input: ExhibitorInput = {
      ...draft,
      quotas: Object.fromEntries(
        Object.entries(quotas)
          .filter(([, v]) => v.trim() !== '')
          .map(([k, v]) => [k, /^\d+$/.test(v.trim()) ? Number(v) : -1]),
      ),
      deadlines: Object.fromEntries(
        Object.entries(deadlines)
          .filter(([, v]) => v !== '')
          .map(([k, v]) => [k, fromEventLocal(v, offset) || v]),
      ),
    };
    const found = exhibitorProblems(input, vocabulary, null);
    setProblems(found);
    if (Object.keys(found).length > 0) return showToast('warning', t('organiser.event.fixFields'));
    setBusy(true);
    try {
      if (id === null) await typedApi.post('/organiser/exhibitors', { body: input, silent: true });
      else await typedApi.put('/organiser/exhibitors/{id}', { path: { id }, body: input, silent: true });
      // The list may be cached from a moment ago (SWR dedupes within 2 s): read it again first.
      await mutate(apiKeyMatches('/organiser/exhibitors'));
      showToast('success', t('success.saved'));
      navigate('/organiser/exhibitors');
    } catch (failure) {
      const fields = failure instanceof ApiError ? (failure.data as { fields?: FieldProblems } | undefined)?.fields : undefined;
      if (fields) setProblems(fields);
      showToast('error', failure instanceof Error ? failure.message : String(failure));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Box component="form" noValidate onSubmit={(e) => (e.preventDefault(), void save())} sx={{ display: 'grid', gap: 2, maxWidth: 960 }}>
      <Paper variant="outlined" sx={{ p: 2, display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' } }}>
        {TEXT_FIELDS.map((field) => (
          <TextField
            key={field}
            label={t(`organiser.import.columns.${field}`)}
            value={draft[field]}
            required={['code', 'name', 'account', 'email'].includes(field)}
            onChange={(e) => setDraft({ ...draft, [field]: e.target.value })}
            {...help(field)}
          />
        ))}
      </Paper>
      <Paper variant="outlined" sx={{ p: 2, display: 'grid', gap: 1 }}>
        <Typography variant="h6" component="h2">
          {t('organiser.event.modules')}
        </Typography>
        {problems.modules && <Alert severity="error">{t(problems.modules)}</Alert>}
        <FormGroup row>
          {vocabulary.modules.map((module) => (
            <FormControlLabel
              key={module}
              label={module}
              control={
                <Checkbox
                  checked={draft.modules.includes(module)}
                  onChange={(e) => setDraft({ ...draft, modules: e.target.checked ? [...draft.modules, module] : draft.modules.filter((m) => m !== module) })}
                />
              }
            />
          ))}
        </FormGroup>
        {Object.entries(vocabulary.flagGroups).map(([group, flags]) => (
          <Box key={group}>
            <Typography variant="subtitle1" component="h3">
              {t(`organiser.flagGroups.${group}`)}
            </Typography>
            <FormGroup row>
              {flags.map((flag) => (
                <FormControlLabel
                  key={flag}
                  label={<FlagLabel flag={flag} />}
                  control={<Checkbox checked={draft.flags[flag] === true} onChange={(e) => setDraft({ ...draft, flags: { ...draft.flags, [flag]: e.target.checked } })} />}
                />
              ))}
            </FormGroup>
          </Box>
        ))}
      </Paper>
      <Paper variant="outlined" sx={{ p: 2, display: 'grid', gap: 2 }}>
        <Typography variant="h6" component="h2">
          {t('organiser.exhibitors.overrides')}
        </Typography>
        <Typography variant="body2" color="text.secondary">
          {t('organiser.exhibitors.overridesHelp')}
        </Typography>
        <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr 1fr', sm: 'repeat(4, 1fr)' } }}>
          {vocabulary.quotaNames.map((name) => (
            <TextField
              key={name}
              label={t(`organiser.names.${name}`)}
              value={quotas[name] ?? ''}
              onChange={(e) => setQuotas({ ...quotas, [name]: e.target.value })}
              {...help(`quotas.${name}`)}
            />
          ))}
        </Box>
        <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' } }}>
          {vocabulary.deadlineNames.map((name) => (
            <EventDateTimeField
              key={name}
              label={t(`organiser.names.${name}`)}
              value={deadlines[name] ?? ''}
              onChange={(local) => setDeadlines({ ...deadlines, [name]: local })}
              offsetMinutes={offset}
              {...help(`deadlines.${name}`)}
            />
          ))}
        </Box>
      </Paper>
      <Box sx={{ display: 'flex', gap: 1 }}>
        <Button type="submit" variant="contained" disabled={busy}>
          {t('organiser.event.save')}
        </Button>
        <Button onClick={() => navigate('/organiser/exhibitors')}>{t('organiser.event.cancel')}</Button>
      </Box>
    </Box>
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
  const initial: ExhibitorInput = existing
    ? { ...existing, flags: definedValues(existing.flags), quotas: definedValues(existing.quotas), deadlines: definedValues(existing.deadlines) }
    : newExhibitorInput({ modules: event!.defaultModules, flags: definedValues(event!.defaultFlags) });
  const { status: _status, forms: _forms, id: _id, ...clean } = initial as ExhibitorInput & { status?: string; forms?: unknown; id?: number };
  return <Form key={id ?? 'new'} id={id} initial={clean} vocabulary={vocabulary} offset={offset} />;
}
