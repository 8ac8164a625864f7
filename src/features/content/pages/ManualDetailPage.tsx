import { Alert, Button, List, ListItem, Paper, Stack, Typography } from '@mui/material';
import DownloadIcon from '@mui/icons-material/Download';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useSearchParams } from 'react-router-dom';
import { intlLocale } from '../../../engine/language';
import { Markdown } from '../../../components/Markdown';
import { PageLoading } from '../../../components/PageLoading';
import { UtcTime } from '../../../components/UtcTime';
import { typedApi } from '../../../lib/api';
import { useApi } from '../../../lib/use-api';
import { useAccountInfo } from '../../../lib/session';
import { showToast } from '../../../lib/toast';
import { ManualStatusChip } from '../components/ManualStatusChip';

/** A file size as people of the language read it (kilobytes below a megabyte). */
const sizeIn = (language: string) => (bytes: number) =>
  bytes < 1024 * 1024
    ? new Intl.NumberFormat(language, { style: 'unit', unit: 'kilobyte', maximumFractionDigits: 0 }).format(Math.max(1, bytes / 1024))
    : new Intl.NumberFormat(language, { style: 'unit', unit: 'megabyte', maximumFractionDigits: 1 }).format(bytes / (1024 * 1024));

/** CT1: a manual; opening it marks it viewed, the button acknowledges it (time and user recorded). */
export default function ManualDetailPage() {
  const { t, i18n } = useTranslation();
  const sizeLabel = sizeIn(intlLocale(i18n.language));
  const [params] = useSearchParams();
  const id = Number(params.get('id'));
  const { data: account } = useAccountInfo();
  const valid = Number.isInteger(id) && id > 0;
  const { data, error, mutate } = useApi('GET', '/content/manuals/{id}', { path: { id } }, { enabled: valid });
  const [busy, setBusy] = useState(false);
  if (!valid) return <Navigate to="/manuals" replace />;
  if (error) return <Alert severity="error">{error.message}</Alert>;
  if (!data) return <PageLoading />;
  const acknowledge = async () => {
    setBusy(true);
    try {
      const updated = await typedApi.post('/content/manuals/{id}/acknowledge', { path: { id } });
      await mutate({ ...data, ...updated }, { revalidate: false });
      showToast('success', t('content.manuals.acknowledgedToast'));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Paper variant="outlined" sx={{ p: { xs: 2, md: 3 } }}>
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap', rowGap: 1, mb: 1 }}>
        <Typography variant="h5" component="h2" sx={{ flex: '1 1 12rem' }}>
          {data.title}
        </Typography>
        <ManualStatusChip status={data.status} />
      </Stack>
      {data.deadline && (
        <Typography variant="body2">
          {t('content.manuals.deadline')}: <UtcTime value={data.deadline} offsetMinutes={account?.utcOffsetMinutes ?? 0} />
        </Typography>
      )}
      <Markdown source={data.body} />
      {data.attachments.length > 0 && (
        <section aria-labelledby="manual-attachments">
          <Typography id="manual-attachments" variant="h6" component="h3" sx={{ mt: 2 }}>
            {t('content.manuals.attachments')}
          </Typography>
          <List dense disablePadding>
            {data.attachments.map((file) => (
              <ListItem key={file.id} disableGutters>
                {/* C3: through the download helper, so the session goes with it and the file keeps its name. */}
                <Button
                  startIcon={<DownloadIcon />}
                  sx={{ textAlign: 'start', wordBreak: 'break-word' }}
                  aria-label={t('content.manuals.downloadAttachment', { name: file.name, size: sizeLabel(file.size) })}
                  onClick={() => void typedApi.download('/content/manuals/{id}/attachments/{fileId}', file.name, { path: { id, fileId: file.id } })}
                >
                  {file.name} ({sizeLabel(file.size)})
                </Button>
              </ListItem>
            ))}
          </List>
        </section>
      )}
      {data.status === 'acknowledged' ? (
        <Alert severity="success" sx={{ mt: 2 }}>
          {t('content.manuals.acknowledgedBy', { name: data.acknowledgedBy ?? '' })} <UtcTime value={data.acknowledgedAt!} offsetMinutes={account?.utcOffsetMinutes ?? 0} />
        </Alert>
      ) : (
        data.ackRequired && (
          <Button variant="contained" sx={{ mt: 2 }} disabled={busy} onClick={() => void acknowledge()}>
            {t('content.manuals.acknowledge')}
          </Button>
        )
      )}
    </Paper>
  );
}
