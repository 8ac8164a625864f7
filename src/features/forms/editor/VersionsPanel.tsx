import { useState } from 'react';
import { Alert, Box, Button, MenuItem, Paper, Stack, Table, TableBody, TableCell, TableHead, TableRow, TextField, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import useSWR from 'swr';
import { UtcTime } from '../../../components/UtcTime';
import type { EditorApi } from './editor-api';

// F11: the form set's published versions, newest first: who published which and why, the
// difference between any two (the gallery's difference list), and rolling back to one, which is a
// new version itself.

/** One change of a difference, in words where it has the gallery's shape. */
function DiffLine({ change }: { change: unknown }) {
  const { t } = useTranslation();
  if (change && typeof change === 'object') {
    const { kind, path, file, title } = change as { kind?: string; path?: string; file?: string; title?: string | null };
    if (kind && path) return <li>{t(`formGallery.change.${kind}`, { field: title ? `${t(title)} (${path})` : path, from: path, to: path, defaultValue: `${kind}: ${path}` })}</li>;
    if (file) return <li>{[file, path, kind].filter(Boolean).join(' ')}</li>;
  }
  return <li>{typeof change === 'string' ? change : JSON.stringify(change)}</li>;
}

export function VersionsPanel({ api, refresh, onRolledBack }: { api: EditorApi; refresh: number; onRolledBack: () => void }) {
  const { t } = useTranslation();
  const { data: versions, error, mutate } = useSWR(['formEditorVersions', refresh], () => api.versions(), { revalidateOnFocus: false });
  const [from, setFrom] = useState<number | ''>('');
  const [to, setTo] = useState<number | ''>('');
  const [diff, setDiff] = useState<unknown>(null);
  const [message, setMessage] = useState<{ severity: 'success' | 'error'; text: string } | null>(null);

  const compare = async () => {
    if (from === '' || to === '') return;
    try {
      setDiff(await api.diff(from, to));
    } catch (failure) {
      setMessage({ severity: 'error', text: (failure as Error).message });
    }
  };
  const rollback = async (number: number) => {
    if (!window.confirm(t('formEditor.rollbackConfirm', { number }))) return;
    try {
      await api.rollback(number, t('formEditor.rollbackComment', { number }));
      setMessage({ severity: 'success', text: t('formEditor.rolledBack', { number }) });
      await mutate();
      onRolledBack();
    } catch (failure) {
      setMessage({ severity: 'error', text: (failure as Error).message });
    }
  };
  const changes = Array.isArray(diff) ? diff : diff && typeof diff === 'object' ? (Object.values(diff).find(Array.isArray) ?? []) : [];

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
      {versions && (
        <Stack spacing={2}>
          <Box sx={{ overflowX: 'auto' }}>
            <Table size="small">
              <TableHead>
                <TableRow>
                  <TableCell>{t('formEditor.version')}</TableCell>
                  <TableCell>{t('formEditor.publishedAt')}</TableCell>
                  <TableCell>{t('formEditor.author')}</TableCell>
                  <TableCell>{t('formEditor.comment')}</TableCell>
                  <TableCell />
                </TableRow>
              </TableHead>
              <TableBody>
                {versions.map((version, index) => (
                  <TableRow key={version.number}>
                    <TableCell>{version.number}</TableCell>
                    <TableCell>{version.createdAt ? <UtcTime value={version.createdAt} /> : ''}</TableCell>
                    <TableCell>{version.author ?? ''}</TableCell>
                    <TableCell>{version.comment ?? ''}</TableCell>
                    <TableCell>
                      {index > 0 && (
                        <Button size="small" onClick={() => rollback(version.number)} aria-label={t('formEditor.rollbackTo', { number: version.number })}>
                          {t('formEditor.rollback')}
                        </Button>
                      )}
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </Box>
          <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
            {[
              [from, setFrom, 'formEditor.compareFrom'],
              [to, setTo, 'formEditor.compareTo'],
            ].map(([value, set, label]) => (
              <TextField
                key={label as string}
                select
                size="small"
                label={t(label as string)}
                value={value as number | ''}
                onChange={(event) => (set as (next: number) => void)(Number(event.target.value))}
                sx={{ minWidth: 120 }}
              >
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
          {diff !== null && (
            <Box component="section" aria-label={t('formEditor.differences')}>
              {changes.length === 0 ? (
                <Typography variant="body2">{t('formEditor.noDifferences')}</Typography>
              ) : (
                <Box component="ul" sx={{ pl: 2 }}>
                  {changes.map((change, index) => (
                    <DiffLine key={index} change={change} />
                  ))}
                </Box>
              )}
            </Box>
          )}
        </Stack>
      )}
    </Paper>
  );
}
