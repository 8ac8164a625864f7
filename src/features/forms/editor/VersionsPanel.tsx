import { useState } from 'react';
import { Alert, Box, Button, Dialog, DialogActions, DialogContent, DialogTitle, MenuItem, Paper, Stack, TextField, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import useSWR from 'swr';
import { ResponsiveTable } from '../../../components/ResponsiveTable';
import { UtcTime } from '../../../components/UtcTime';
import type { EditorApi, VersionDiff } from './editor-api';

// F11: the form set's published versions, newest first: who published which and why, the
// difference between any two (the gallery's difference list), and rolling back to one, which is a
// new version itself.

/** The difference between two versions: each form's (and each event's) field changes, then files and strings. */
function DiffView({ diff }: { diff: VersionDiff }) {
  const { t } = useTranslation();
  const field = (title: string | null | undefined, path: string) => (title ? `${t(title)} (${path})` : path);
  const empty = diff.forms.every((form) => form.changes.length === 0) && diff.files.length === 0 && diff.strings.length === 0;
  if (empty) return <Typography variant="body2">{t('formEditor.noDifferences')}</Typography>;
  return (
    <Box component="ul" sx={{ pl: 2 }}>
      {diff.forms
        .filter((form) => form.changes.length > 0)
        .map((form) => (
          <li key={`${form.formId}/${form.exhibitCode ?? ''}`}>
            {form.exhibitCode ? t('formEditor.diffFormOfEvent', { form: form.formId, event: form.exhibitCode }) : t('formEditor.diffBaseForm', { form: form.formId })}
            <Box component="ul" sx={{ pl: 2 }}>
              {form.changes.map((change) => (
                <li key={`${change.kind}:${change.path}`}>
                  {change.kind === 'relabelled'
                    ? t('formGallery.change.relabelled', { from: field(change.from, change.path), to: change.to ? t(change.to) : change.path })
                    : t(`formGallery.change.${change.kind}`, { field: field(change.title, change.path) })}
                </li>
              ))}
            </Box>
          </li>
        ))}
      {diff.files.map((file) => (
        <li key={file.file}>{t(`formEditor.diffFile.${file.change}`, { file: file.file })}</li>
      ))}
      {diff.strings.length > 0 && <li>{t('formEditor.diffStrings', { count: diff.strings.length })}</li>}
    </Box>
  );
}

export function VersionsPanel({ api, refresh, onRolledBack }: { api: EditorApi; refresh: number; onRolledBack: () => void }) {
  const { t } = useTranslation();
  const { data: versions, error, mutate } = useSWR(['formEditorVersions', refresh], () => api.versions(), { revalidateOnFocus: false });
  const [from, setFrom] = useState<number | ''>('');
  const [to, setTo] = useState<number | ''>('');
  const [diff, setDiff] = useState<VersionDiff | null>(null);
  const [message, setMessage] = useState<{ severity: 'success' | 'error'; text: string } | null>(null);
  /** The version the organiser asked to roll back to, waiting for confirmation. */
  const [asked, setAsked] = useState<number | null>(null);

  const compare = async () => {
    if (from === '' || to === '') return;
    try {
      setDiff(await api.diff(from, to));
    } catch (failure) {
      setMessage({ severity: 'error', text: (failure as Error).message });
    }
  };
  const rollback = async (number: number) => {
    const current = versions?.find((version) => version.current);
    setAsked(null);
    if (!current) return;
    try {
      await api.rollback(number, current.number, t('formEditor.rollbackComment', { number }));
      setMessage({ severity: 'success', text: t('formEditor.rolledBack', { number }) });
      await mutate();
      onRolledBack();
    } catch (failure) {
      setMessage({ severity: 'error', text: (failure as Error).message });
    }
  };

  /** The two versions compared: the one changed from, the one changed to. */
  const comparePickers: Array<{ value: number | ''; choose: (next: number) => void; label: string }> = [
    { value: from, choose: setFrom, label: 'formEditor.compareFrom' },
    { value: to, choose: setTo, label: 'formEditor.compareTo' },
  ];

  return (
    <Paper sx={{ p: 2 }} component="section" aria-labelledby="versions-heading">
      <Typography id="versions-heading" variant="h6" component="h2" sx={{ mb: 1 }}>
        {t('formEditor.versionsHeading')}
      </Typography>
      {error && <Alert severity="error">{(error as Error).message}</Alert>}
      {message && (
        <Alert severity={message.severity} role={message.severity === 'error' ? 'alert' : 'status'} sx={{ mb: 1 }}>
          {message.text}
        </Alert>
      )}
      {asked !== null && (
        <Dialog open onClose={() => setAsked(null)} aria-labelledby="rollback-title">
          <DialogTitle id="rollback-title">{t('formEditor.rollbackTo', { number: asked })}</DialogTitle>
          <DialogContent>
            <Typography variant="body2">{t('formEditor.rollbackConfirm', { number: asked })}</Typography>
          </DialogContent>
          <DialogActions>
            <Button onClick={() => setAsked(null)}>{t('formEditor.cancel')}</Button>
            <Button variant="contained" onClick={() => rollback(asked)}>
              {t('formEditor.rollback')}
            </Button>
          </DialogActions>
        </Dialog>
      )}
      {versions && (
        <Stack spacing={2}>
          <ResponsiveTable
            label={t('formEditor.versionsHeading')}
            size="small"
            outlined={false}
            rows={versions}
            rowKey={(version) => version.number}
            rowProps={(version) => ({ selected: version.current })}
            columns={[
              {
                key: 'version',
                label: t('formEditor.version'),
                primary: true,
                cellSx: {},
                cell: (version) => `${version.number}${version.current ? ` (${t('formEditor.inUse')})` : version.status === 'draft' ? ` (${t('formEditor.notPublished')})` : ''}`,
              },
              { key: 'publishedAt', label: t('formEditor.publishedAt'), cell: (version) => (version.createdAt ? <UtcTime value={version.createdAt} /> : '') },
              { key: 'author', label: t('formEditor.author'), cell: (version) => version.author },
              { key: 'comment', label: t('formEditor.comment'), cell: (version) => version.comment },
              {
                key: 'rollback',
                label: t('formEditor.rollback'),
                header: '',
                actions: true,
                cell: (version) =>
                  !version.current &&
                  version.status === 'published' && (
                    <Button size="small" onClick={() => setAsked(version.number)} aria-label={t('formEditor.rollbackTo', { number: version.number })}>
                      {t('formEditor.rollback')}
                    </Button>
                  ),
              },
            ]}
          />
          <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
            {comparePickers.map(({ value, choose, label }) => (
              <TextField key={label} select size="small" label={t(label)} value={value} onChange={(event) => choose(Number(event.target.value))} sx={{ minWidth: 120 }}>
                {versions.map((version) => (
                  <MenuItem key={version.number} value={version.number}>
                    {version.number}
                  </MenuItem>
                ))}
              </TextField>
            ))}
            <Button variant="outlined" onClick={compare} disabled={from === '' || to === ''}>
              {t('formEditor.compare')}
            </Button>
          </Stack>
          {diff && (
            <Box component="section" aria-label={t('formEditor.differences')}>
              <DiffView diff={diff} />
            </Box>
          )}
        </Stack>
      )}
    </Paper>
  );
}
