import {
  Alert,
  Box,
  Button,
  Checkbox,
  Chip,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  FormControlLabel,
  MenuItem,
  Paper,
  Stack,
  Tab,
  Tabs,
  TextField,
  Typography,
} from '@mui/material';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LANGUAGE_OPTIONS } from '../../../engine/language';
import { catalogue } from '../../../generated/screens';
import { Markdown } from '../../../components/Markdown';
import { PageLoading } from '../../../components/PageLoading';
import { ResponsiveTable } from '../../../components/ResponsiveTable';
import { EventDateTimeField } from '../../../components/EventDateTimeField';
import { fromEventLocal, toEventLocal } from '../../../engine/organiser-events';
import { useAccountInfo } from '../../../lib/session';
import { typedApi } from '../../../lib/api';
import { useApi } from '../../../lib/use-api';
import type { ApiBody, ApiData } from '../../../lib/typed-api';
import { ApiError } from '../../../lib/api-client';
import { showToast } from '../../../lib/toast';
import { AttachmentsField } from '../components/AttachmentsField';

// The organiser authors its current event's content in four languages, sees which
// translations are missing (exhibitors then read the event's default language), previews the
// Markdown exactly as exhibitors will see it, and sees manual acknowledgements.

const KINDS = ['manual', 'announcement', 'faq', 'tip', 'introduction', 'supportContact'] as const;
type Kind = (typeof KINDS)[number];
/** A module an item can be shown to (the body's `audience` takes the exhibitor modules only). */
type Audience = NonNullable<ApiBody<'POST', '/organiser/content'>['audience']>[number];

/** An item as the organiser's list answers it (the counts are manuals' only). */
type Item = ApiData<'GET', '/organiser/content'>[number];

type Draft = Omit<Item, 'id' | 'kind' | 'missingLanguages' | 'viewed' | 'acknowledged'> & { id?: number; kind: Kind; emailExhibitors: boolean };

const MODULES = catalogue.modules.filter((module) => !module.startsWith('Organiser'));
const isAudience = (module: string): module is Audience => MODULES.includes(module);

const blank = (kind: Kind): Draft => ({
  kind,
  title: {},
  description: {},
  body: {},
  category: {},
  mandatory: false,
  ackRequired: false,
  deadline: null,
  pinned: false,
  audience: [],
  publishedAt: new Date().toISOString(),
  position: 0,
  emailExhibitors: false,
  attachments: [],
});

/** The editable part of an item (its counts and missing languages are the server's, never sent back). */
const draftOf = ({ missingLanguages: _missing, viewed: _viewed, acknowledged: _acknowledged, ...editable }: Item, tab: Kind): Draft => ({
  ...editable,
  // The list holds the tab's kind only; the tab names it in the editor's type.
  kind: KINDS.find((kind) => kind === editable.kind) ?? tab,
  emailExhibitors: false,
});

/** K2: a datetime-local value in event time (never the browser's zone), and back. */
const toLocalInput = (iso: string | null, offsetMinutes: number) => (iso ? toEventLocal(iso, offsetMinutes) : '');
const fromLocalInput = (value: string, offsetMinutes: number) => (value ? fromEventLocal(value, offsetMinutes) || null : null);

function Editor({ draft, onClose, onSaved }: { draft: Draft; onClose: () => void; onSaved: () => void }) {
  const { t } = useTranslation();
  const [value, setValue] = useState<Draft>(draft);
  const offset = useAccountInfo().data?.utcOffsetMinutes ?? 0;
  const [language, setLanguage] = useState<string>('en');
  const [preview, setPreview] = useState(false);
  const [problem, setProblem] = useState('');
  const [busy, setBusy] = useState(false);
  const text = (field: 'title' | 'description' | 'body' | 'category') => (event: React.ChangeEvent<HTMLInputElement>) =>
    setValue({ ...value, [field]: { ...value[field], [language]: event.target.value } });
  const save = async () => {
    setBusy(true);
    setProblem('');
    try {
      const { id, audience, ...rest } = value;
      const body = { ...rest, audience: audience.filter(isAudience) };
      await (id ? typedApi.put('/organiser/content/{id}', { path: { id }, body }) : typedApi.post('/organiser/content', { body }));
      showToast('success', t('success.saved'));
      onSaved();
    } catch (error) {
      setProblem(error instanceof ApiError || error instanceof Error ? error.message : String(error));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="md" aria-labelledby="content-editor-title">
      <DialogTitle id="content-editor-title">{t(`organiserContent.kind.${value.kind}`)}</DialogTitle>
      <DialogContent>
        <Tabs value={language} onChange={(_, next) => setLanguage(next)} aria-label={t('organiserContent.language')} variant="scrollable">
          {LANGUAGE_OPTIONS.map(({ code, label }) => (
            <Tab key={code} value={code} label={value.title[code]?.trim() ? label : t('organiserContent.missingTab', { language: label })} />
          ))}
        </Tabs>
        <Stack spacing={2} sx={{ mt: 2 }}>
          <TextField
            label={value.kind === 'faq' ? t('organiserContent.question') : t('organiserContent.title')}
            value={value.title[language] ?? ''}
            onChange={text('title')}
            required={language === 'en'}
            slotProps={{ htmlInput: { maxLength: 300 } }}
          />
          {value.kind === 'faq' && <TextField label={t('organiserContent.category')} value={value.category[language] ?? ''} onChange={text('category')} />}
          {value.kind === 'manual' && <TextField label={t('organiserContent.description')} value={value.description[language] ?? ''} onChange={text('description')} multiline />}
          <FormControlLabel control={<Checkbox checked={preview} onChange={(e) => setPreview(e.target.checked)} />} label={t('organiserContent.preview')} />
          {preview ? (
            <Paper variant="outlined" sx={{ p: 2 }} aria-label={t('organiserContent.preview')}>
              <Markdown source={value.body[language] ?? ''} />
            </Paper>
          ) : (
            <TextField
              label={value.kind === 'faq' ? t('organiserContent.answer') : t('organiserContent.body')}
              helperText={t('organiserContent.markdownHelp')}
              value={value.body[language] ?? ''}
              onChange={text('body')}
              multiline
              minRows={6}
            />
          )}
          {value.kind === 'manual' && (
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
              <FormControlLabel
                control={<Checkbox checked={value.mandatory} onChange={(e) => setValue({ ...value, mandatory: e.target.checked })} />}
                label={t('organiserContent.mandatory')}
              />
              <FormControlLabel
                control={<Checkbox checked={value.ackRequired} onChange={(e) => setValue({ ...value, ackRequired: e.target.checked })} />}
                label={t('organiserContent.ackRequired')}
              />
              <EventDateTimeField
                label={t('organiserContent.deadline')}
                value={toLocalInput(value.deadline, offset)}
                onChange={(local) => setValue({ ...value, deadline: fromLocalInput(local, offset) })}
                offsetMinutes={offset}
              />
            </Stack>
          )}
          {value.kind === 'manual' && <AttachmentsField value={value.attachments} onChange={(attachments) => setValue({ ...value, attachments })} />}
          {value.kind === 'announcement' && (
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
              <FormControlLabel
                control={<Checkbox checked={value.pinned} onChange={(e) => setValue({ ...value, pinned: e.target.checked })} />}
                label={t('organiserContent.pinned')}
              />
              <FormControlLabel
                control={<Checkbox checked={value.emailExhibitors} onChange={(e) => setValue({ ...value, emailExhibitors: e.target.checked })} />}
                label={t('organiserContent.emailExhibitors')}
              />
            </Stack>
          )}
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
            <EventDateTimeField
              label={t('organiserContent.publishedAt')}
              value={toLocalInput(value.publishedAt, offset)}
              onChange={(local) => setValue({ ...value, publishedAt: fromLocalInput(local, offset) ?? new Date().toISOString() })}
              offsetMinutes={offset}
            />
            <TextField
              select
              label={t('organiserContent.audience')}
              value={value.audience}
              onChange={(e) => setValue({ ...value, audience: e.target.value as unknown as string[] })}
              slotProps={{ select: { multiple: true } }}
              helperText={t('organiserContent.audienceHelp')}
              sx={{ minWidth: 240 }}
            >
              {MODULES.map((module) => (
                <MenuItem key={module} value={module}>
                  {module}
                </MenuItem>
              ))}
            </TextField>
          </Stack>
          {problem && <Alert severity="error">{problem}</Alert>}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('organiserContent.cancel')}</Button>
        <Button variant="contained" disabled={busy} onClick={() => void save()}>
          {t('organiserContent.save')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

/** The organiser's content of its current event, by kind. */
export default function OrganiserContentPage() {
  const { t } = useTranslation();
  const [kind, setKind] = useState<Kind>('manual');
  const [editing, setEditing] = useState<Draft | null>(null);
  const { data, error, mutate } = useApi('GET', '/organiser/content', { query: { kind } });
  const remove = async (item: Item) => {
    await typedApi.del('/organiser/content/{id}', { path: { id: item.id } });
    showToast('success', t('success.deleted'));
    void mutate();
  };
  return (
    <>
      <Tabs value={kind} onChange={(_, next) => setKind(next)} variant="scrollable" aria-label={t('organiserContent.kinds')}>
        {KINDS.map((value) => (
          <Tab key={value} value={value} label={t(`organiserContent.kind.${value}`)} />
        ))}
      </Tabs>
      <Box sx={{ my: 2 }}>
        <Button variant="contained" onClick={() => setEditing(blank(kind))}>
          {t('organiserContent.add', { kind: t(`organiserContent.kind.${kind}`) })}
        </Button>
      </Box>
      {error && <Alert severity="error">{error.message}</Alert>}
      {!data && !error && <PageLoading />}
      {data && data.length === 0 && <Typography color="text.secondary">{t('organiserContent.none')}</Typography>}
      {data && data.length > 0 && (
        <ResponsiveTable
          label={t(`organiserContent.kind.${kind}`)}
          size="small"
          rows={data}
          rowKey={(item) => item.id}
          columns={[
            {
              key: 'title',
              label: t('organiserContent.title'),
              primary: true,
              cell: (item) => (
                <>
                  {item.title.en || Object.values(item.title)[0]}
                  {item.mandatory && <Chip size="small" sx={{ ml: 1 }} label={t('organiserContent.mandatory')} />}
                  {item.pinned && <Chip size="small" sx={{ ml: 1 }} label={t('organiserContent.pinned')} />}
                </>
              ),
            },
            {
              key: 'translations',
              label: t('organiserContent.translations'),
              cell: (item) =>
                item.missingLanguages.length === 0
                  ? t('organiserContent.complete')
                  : t('organiserContent.missing', {
                      languages: item.missingLanguages.map((code) => LANGUAGE_OPTIONS.find((option) => option.code === code)?.label ?? code).join(', '),
                    }),
            },
            ...(kind === 'manual'
              ? [
                  {
                    key: 'acknowledgements',
                    label: t('organiserContent.acknowledgements'),
                    cell: (item: Item) => t('organiserContent.ackCount', { acknowledged: item.acknowledged ?? 0, viewed: item.viewed ?? 0 }),
                  },
                ]
              : []),
            {
              key: 'action',
              label: t('formRuntime.list.action'),
              actions: true,
              cell: (item) => (
                <Box>
                  <Button size="small" onClick={() => setEditing(draftOf(item, kind))}>
                    {t('organiserContent.edit')}
                  </Button>
                  <Button size="small" color="error" onClick={() => void remove(item)}>
                    {t('organiserContent.remove')}
                  </Button>
                </Box>
              ),
            },
          ]}
        />
      )}
      {editing && (
        <Editor
          draft={editing}
          onClose={() => setEditing(null)}
          onSaved={() => {
            setEditing(null);
            void mutate();
          }}
        />
      )}
    </>
  );
}
