import { useEffect, useId, useState } from 'react';
import { Alert, Box, Button, Checkbox, FormControlLabel, FormGroup, IconButton, MenuItem, Paper, TextField, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import useSWR, { mutate } from 'swr';
import { apiKeyMatches } from '../../../lib/use-api';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { LANGUAGE_OPTIONS } from '../../../engine/language';
import { checkFile, FILE_TYPE_MIME } from '../../../engine/forms/files';
import { EVENT_LOGO_PATH, EVENT_LOGO_RULE, eventProblems, fromEventLocal, toEventLocal, UTC_OFFSET_RANGE, type FieldProblems } from '../../../engine/organiser-events';
import type { EventInput } from '../../../engine/schemas/event';
import { FlagLabel } from '../../../components/FlagLabel';
import { VISITOR_DIRECTORY_FIELDS, type VisitorDirectoryField } from '../../../engine/leads';
import { formatOffset } from '../../../engine/time';
import { DATE_ORDERS, DEFAULT_DATE_ORDER, formatEventDay, type DateOrder } from '../../../engine/locale-format';
import { currentLanguage } from '../../../lib/i18n';
import { EventDateTimeField } from '../../../components/EventDateTimeField';
import { PageLoading } from '../../../components/PageLoading';
import { typedApi } from '../../../lib/api';
import { ApiError } from '../../../lib/api-client';
import { loadUserInfo } from '../../../lib/session';
import { showToast } from '../../../lib/toast';
import { definedValues, type ApiData } from '../../../lib/typed-api';
import { useEvent, useVocabulary, type Vocabulary } from '../api';

// O2: every setting of an event. Deadlines are typed in event time; a rule broken
// (a deadline after the show, a closing before the opening…) shows beside its field, whether
// the page or the server found it.

/** What the fields hold while the organiser types. */
interface Draft extends Omit<EventInput, 'deadlines' | 'defaultQuotas' | 'reminderDays'> {
  /** Deadline name → event-local "YYYY-MM-DDTHH:MM" ('' = none). */
  deadlines: Record<string, string>;
  quotas: Record<string, string>;
  reminderDays: string;
}

const OFFSETS = Array.from({ length: (UTC_OFFSET_RANGE.max - UTC_OFFSET_RANGE.min) / 15 + 1 }, (_, i) => UTC_OFFSET_RANGE.min + i * 15);

function emptyDraft(vocabulary: Vocabulary): Draft {
  return {
    code: '',
    names: {},
    defaultLanguage: 'en',
    showDays: [{ date: '', opens: '10:00', closes: '18:00' }],
    utcOffsetMinutes: 480,
    dateOrder: DEFAULT_DATE_ORDER,
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
    quotas: {},
    reminderDays: '7, 1',
  };
}

function draftOf(event: ApiData<'GET', '/organiser/events/{id}'>): Draft {
  // The event as read carries its id, which the save does not take (it answered "not valid").
  const { id: _id, ...input } = event;
  return {
    ...input,
    names: definedValues(input.names),
    settings: definedValues(input.settings),
    defaultFlags: definedValues(input.defaultFlags),
    deadlines: Object.fromEntries(Object.entries(definedValues(input.deadlines)).map(([name, at]) => [name, toEventLocal(at, input.utcOffsetMinutes)])),
    quotas: Object.fromEntries(Object.entries(definedValues(input.defaultQuotas)).map(([name, value]) => [name, String(value)])),
    reminderDays: input.reminderDays.join(', '),
  };
}

function inputOf(draft: Draft): EventInput {
  const { quotas, reminderDays, deadlines, ...rest } = draft;
  return {
    ...rest,
    // Empty: the form's default (no value of the event's own).
    settings: Object.fromEntries(
      Object.entries(draft.settings)
        .map(([name, value]) => [name, value.trim()])
        .filter(([, value]) => value !== ''),
    ),
    deadlines: Object.fromEntries(
      Object.entries(deadlines)
        .filter(([, local]) => local !== '')
        .map(([name, local]) => [name, fromEventLocal(local, draft.utcOffsetMinutes) || local]),
    ),
    defaultQuotas: Object.fromEntries(
      Object.entries(quotas)
        .filter(([, value]) => value.trim() !== '')
        .map(([name, value]) => [name, /^\d+$/.test(value.trim()) ? Number(value) : -1]),
    ),
    reminderDays: reminderDays
      .split(/[,\s]+/)
      .filter(Boolean)
      .map((day) => (/^\d+$/.test(day) ? Number(day) : -1)),
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

function EventForm({ id, initial, vocabulary }: { id: number | null; initial: Draft; vocabulary: Vocabulary }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [draft, setDraft] = useState<Draft>(initial);
  const [problems, setProblems] = useState<FieldProblems>({});
  const [busy, setBusy] = useState(false);
  const set = <K extends keyof Draft>(key: K, value: Draft[K]) => setDraft((current) => ({ ...current, [key]: value }));
  const problem = (field: string) => (problems[field] ? t(problems[field]) : undefined);
  const fieldProps = (field: string) => ({ error: Boolean(problems[field]), helperText: problem(field) });
  // LD1: the visitor fields exhibitors' scanners may keep offline (an existing event only).
  const directory = useSWR(id === null ? null : ['/organiser/events/{id}/visitor-directory', id], () =>
    typedApi.get('/organiser/events/{id}/visitor-directory', { path: { id: id! } }),
  );
  const [directoryFields, setDirectoryFields] = useState<VisitorDirectoryField[] | null>(null);
  const sharedFields = directoryFields ?? directory.data?.fields ?? [];

  const save = async () => {
    const input = inputOf(draft);
    const found = eventProblems(input, vocabulary);
    setProblems(found);
    if (Object.keys(found).length > 0) {
      showToast('warning', t('organiser.event.fixFields'));
      return;
    }
    setBusy(true);
    try {
      if (id === null) await typedApi.post('/organiser/events', { body: input, silent: true });
      else {
        await typedApi.put('/organiser/events/{id}', { path: { id }, body: input, silent: true });
        if (directoryFields !== null) await typedApi.put('/organiser/events/{id}/visitor-directory', { path: { id }, body: { fields: directoryFields }, silent: true });
      }
      // The list may be cached from a moment ago (SWR dedupes within 2 s): read it again first.
      await Promise.all([loadUserInfo(), mutate(apiKeyMatches('/organiser/events'))]);
      showToast('success', t(id === null ? 'organiser.events.created' : 'organiser.events.saved'));
      navigate('/organiser/events');
    } catch (failure) {
      const fields = failure instanceof ApiError ? (failure.data as { fields?: FieldProblems } | undefined)?.fields : undefined;
      if (fields) setProblems(fields);
      showToast('error', failure instanceof Error ? failure.message : String(failure));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Box component="form" noValidate onSubmit={(submit) => (submit.preventDefault(), void save())} sx={{ display: 'grid', gap: 2, maxWidth: 960 }}>
      <Section title={t('organiser.event.general')}>
        <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' } }}>
          <TextField
            label={t('organiser.event.code')}
            value={draft.code}
            onChange={(e) => set('code', e.target.value)}
            required
            {...fieldProps('code')}
            helperText={problem('code') ?? t('organiser.event.codeHelp')}
          />
          <TextField
            select
            label={t('organiser.event.defaultLanguage')}
            value={draft.defaultLanguage}
            onChange={(e) => set('defaultLanguage', LANGUAGE_OPTIONS.find((option) => option.code === e.target.value)?.code ?? draft.defaultLanguage)}
            {...fieldProps('defaultLanguage')}
          >
            {LANGUAGE_OPTIONS.map((option) => (
              <MenuItem key={option.code} value={option.code}>
                {option.label}
              </MenuItem>
            ))}
          </TextField>
          {LANGUAGE_OPTIONS.map((option) => (
            <TextField
              key={option.code}
              label={t('organiser.event.nameIn', { language: option.label })}
              value={draft.names[option.code] ?? ''}
              onChange={(e) => set('names', { ...draft.names, [option.code]: e.target.value })}
              required={option.code === draft.defaultLanguage}
              {...fieldProps(`names.${option.code}`)}
            />
          ))}
          <TextField label={t('organiser.event.venue')} value={draft.venue} onChange={(e) => set('venue', e.target.value)} {...fieldProps('venue')} />
          <TextField
            select
            label={t('organiser.event.utcOffset')}
            value={draft.utcOffsetMinutes}
            onChange={(e) => set('utcOffsetMinutes', Number(e.target.value))}
            {...fieldProps('utcOffsetMinutes')}
          >
            {OFFSETS.map((offset) => (
              <MenuItem key={offset} value={offset}>
                {formatOffset(offset)}
              </MenuItem>
            ))}
          </TextField>
          <TextField
            select
            label={t('organiser.event.dateOrder')}
            value={draft.dateOrder ?? DEFAULT_DATE_ORDER}
            onChange={(e) => set('dateOrder', e.target.value as DateOrder)}
            error={Boolean(problems.dateOrder)}
            helperText={problem('dateOrder') || t('organiser.event.dateOrderHelp')}
          >
            {DATE_ORDERS.map((order) => (
              <MenuItem key={order} value={order}>
                {t(`organiser.event.dateOrders.${order}`, { example: formatEventDay('2027-03-26', { language: currentLanguage(), dateOrder: order }) })}
              </MenuItem>
            ))}
          </TextField>
          <TextField label={t('organiser.event.url')} value={draft.url} onChange={(e) => set('url', e.target.value)} type="url" {...fieldProps('url')} />
          <TextField label={t('organiser.event.logoUrl')} value={draft.logoUrl} onChange={(e) => set('logoUrl', e.target.value)} type="url" {...fieldProps('logoUrl')} />
          <TextField label={t('organiser.event.termsUrl')} value={draft.termsUrl} onChange={(e) => set('termsUrl', e.target.value)} type="url" {...fieldProps('termsUrl')} />
          <TextField
            label={t('organiser.event.supportEmail')}
            value={draft.supportEmail}
            onChange={(e) => set('supportEmail', e.target.value)}
            type="email"
            {...fieldProps('supportEmail')}
          />
        </Box>
      </Section>

      <Section title={t('organiser.event.showDays')}>
        {problem('showDays') && <Alert severity="error">{problem('showDays')}</Alert>}
        {draft.showDays.map((day, index) => {
          const change = (key: 'date' | 'opens' | 'closes', value: string) =>
            set(
              'showDays',
              draft.showDays.map((d, i) => (i === index ? { ...d, [key]: value } : d)),
            );
          return (
            <Box key={index} sx={{ display: 'grid', gap: 1, gridTemplateColumns: { xs: '1fr 1fr', sm: '2fr 1fr 1fr auto' }, alignItems: 'start' }}>
              <EventDateTimeField
                dateOnly
                label={t('organiser.event.date')}
                value={day.date}
                onChange={(local) => change('date', local)}
                offsetMinutes={draft.utcOffsetMinutes}
                sx={{ gridColumn: { xs: '1 / -1', sm: 'auto' } }}
                {...fieldProps(`showDays.${index}.date`)}
              />
              <TextField
                type="time"
                label={t('organiser.event.opens')}
                value={day.opens}
                onChange={(e) => change('opens', e.target.value)}
                slotProps={{ inputLabel: { shrink: true } }}
                {...fieldProps(`showDays.${index}.opens`)}
              />
              <TextField
                type="time"
                label={t('organiser.event.closes')}
                value={day.closes}
                onChange={(e) => change('closes', e.target.value)}
                slotProps={{ inputLabel: { shrink: true } }}
                {...fieldProps(`showDays.${index}.closes`)}
              />
              <IconButton
                aria-label={t('organiser.event.removeDay')}
                disabled={draft.showDays.length === 1}
                onClick={() =>
                  set(
                    'showDays',
                    draft.showDays.filter((_, i) => i !== index),
                  )
                }
              >
                ×
              </IconButton>
            </Box>
          );
        })}
        <Box>
          <Button onClick={() => set('showDays', [...draft.showDays, { date: '', opens: '10:00', closes: '18:00' }])}>{t('organiser.event.addDay')}</Button>
        </Box>
      </Section>

      <Section title={t('organiser.event.deadlines')}>
        <Typography variant="body2" color="text.secondary">
          {t('organiser.event.deadlinesHelp')}
        </Typography>
        <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' } }}>
          {vocabulary.deadlineNames.map((name) => (
            <EventDateTimeField
              key={name}
              label={t(`organiser.names.${name}`, { defaultValue: name })}
              value={draft.deadlines[name] ?? ''}
              onChange={(local) => set('deadlines', { ...draft.deadlines, [name]: local })}
              offsetMinutes={draft.utcOffsetMinutes}
              {...fieldProps(`deadlines.${name}`)}
            />
          ))}
        </Box>
      </Section>

      <Section title={t('organiser.event.formSettings')}>
        <Typography variant="body2" color="text.secondary">
          {t('organiser.event.formSettingsHelp')}
        </Typography>
        <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr 1fr' } }}>
          <TextField
            label={t('organiser.event.currency')}
            value={draft.currency}
            onChange={(e) => set('currency', e.target.value.toUpperCase())}
            slotProps={{ htmlInput: { maxLength: 3 } }}
            {...fieldProps('currency')}
          />
          {/* O2: each value forms.yaml lets the event set (a fee's price, an approval limit); empty keeps its default. */}
          {vocabulary.settings.map((setting) => (
            <TextField
              key={setting.name}
              label={
                setting.kind === 'money'
                  ? `${t(`organiser.names.${setting.name}`, { defaultValue: setting.name })} (${draft.currency})`
                  : t(`organiser.names.${setting.name}`, { defaultValue: setting.name })
              }
              value={draft.settings[setting.name] ?? ''}
              onChange={(e) => set('settings', { ...draft.settings, [setting.name]: e.target.value })}
              slotProps={{ htmlInput: { inputMode: 'decimal' } }}
              error={Boolean(problems[`settings.${setting.name}`])}
              helperText={
                problem(`settings.${setting.name}`) ?? t('organiser.event.settingDefault', { value: setting.currency ? `${setting.default} ${setting.currency}` : setting.default })
              }
            />
          ))}
        </Box>
      </Section>

      <Section title={t('organiser.event.defaults')}>
        <Typography component="h3" variant="subtitle1">
          {t('organiser.event.modules')}
        </Typography>
        {problem('defaultModules') && <Alert severity="error">{problem('defaultModules')}</Alert>}
        <FormGroup row>
          {vocabulary.modules.map((module) => (
            <FormControlLabel
              key={module}
              label={module}
              control={
                <Checkbox
                  checked={draft.defaultModules.includes(module)}
                  onChange={(e) => set('defaultModules', e.target.checked ? [...draft.defaultModules, module] : draft.defaultModules.filter((m) => m !== module))}
                />
              }
            />
          ))}
        </FormGroup>
        {Object.entries(vocabulary.flagGroups).map(([group, flags]) => (
          <Box key={group}>
            <Typography component="h3" variant="subtitle1">
              {t(`organiser.flagGroups.${group}`)}
            </Typography>
            <FormGroup row>
              {flags.map((flag) => (
                <FormControlLabel
                  key={flag}
                  label={<FlagLabel flag={flag} />}
                  control={<Checkbox checked={draft.defaultFlags[flag] === true} onChange={(e) => set('defaultFlags', { ...draft.defaultFlags, [flag]: e.target.checked })} />}
                />
              ))}
            </FormGroup>
          </Box>
        ))}
        <Typography component="h3" variant="subtitle1">
          {t('organiser.event.quotas')}
        </Typography>
        <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr 1fr', sm: 'repeat(4, 1fr)' } }}>
          {vocabulary.quotaNames.map((name) => (
            <TextField
              key={name}
              label={t(`organiser.names.${name}`, { defaultValue: name })}
              value={draft.quotas[name] ?? ''}
              onChange={(e) => set('quotas', { ...draft.quotas, [name]: e.target.value })}
              slotProps={{ htmlInput: { inputMode: 'numeric' } }}
              {...fieldProps(`defaultQuotas.${name}`)}
            />
          ))}
        </Box>
        <TextField
          label={t('organiser.event.reminderDays')}
          value={draft.reminderDays}
          onChange={(e) => set('reminderDays', e.target.value)}
          {...fieldProps('reminderDays')}
          helperText={problem('reminderDays') ?? t('organiser.event.reminderDaysHelp')}
        />
      </Section>
      <Section title={t('organiser.event.logoPreview')}>
        <Typography variant="body2">{t('organiser.event.logoHelp')}</Typography>
        <LogoUpload eventId={id} logoUrl={draft.logoUrl} onUploaded={(logoUrl) => set('logoUrl', logoUrl)} />
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

      <Box sx={{ display: 'flex', gap: 1, position: 'sticky', bottom: 0, py: 1, bgcolor: 'background.default' }}>
        <Button type="submit" variant="contained" disabled={busy}>
          {t('organiser.event.save')}
        </Button>
        <Button onClick={() => navigate('/organiser/events')}>{t('organiser.event.cancel')}</Button>
      </Box>
    </Box>
  );
}

/** /organiser/events/edit (new) or /organiser/events/edit?id=… (one of the organisation's events). */
export default function EventEditPage() {
  const [params] = useSearchParams();
  const raw = params.get('id');
  const id = raw && /^\d+$/.test(raw) ? Number(raw) : null;
  const { data: vocabulary, error: vocabularyError } = useVocabulary();
  const { data: event, error } = useEvent(id);
  const [initial, setInitial] = useState<Draft | null>(null);
  useEffect(() => {
    if (!vocabulary) return;
    if (id === null) setInitial(emptyDraft(vocabulary));
    else if (event) setInitial(draftOf(event));
  }, [vocabulary, event, id]);
  const failure = vocabularyError ?? error;
  if (failure) return <Alert severity="error">{failure.message}</Alert>;
  if (!vocabulary || !initial) return <PageLoading />;
  return <EventForm key={id ?? 'new'} id={id} initial={initial} vocabulary={vocabulary} />;
}
