import { Alert, AlertTitle, Box, Button, Link, Paper, Stack, Typography } from '@mui/material';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router-dom';
import { PageLoading } from '../../../components/PageLoading';
import { ResponsiveTable } from '../../../components/ResponsiveTable';
import { UtcTime } from '../../../components/UtcTime';
import { typedApi } from '../../../lib/api';
import { useApi } from '../../../lib/use-api';

// The forms are files the organiser edits while the portal runs. This page says which
// version of them is in use and since when, lists the problems of a change that was refused
// (file, place in it, message: the forms in use keep serving meanwhile), and reads them again on
// request (a change is otherwise picked up by itself within seconds).

export default function OrganiserFormsPage() {
  const { t } = useTranslation();
  const { data, mutate } = useApi('GET', '/organiser/forms', undefined, { refreshInterval: 5000 });
  const [outcome, setOutcome] = useState<'changed' | 'unchanged' | 'refused' | null>(null);
  const [busy, setBusy] = useState(false);
  if (!data) return <PageLoading />;
  const reload = async () => {
    setBusy(true);
    setOutcome(null);
    try {
      const answer = await typedApi.post('/organiser/forms/reload');
      await mutate(answer.status, { revalidate: false });
      setOutcome(answer.status.refused ? 'refused' : answer.changed ? 'changed' : 'unchanged');
    } finally {
      setBusy(false);
    }
  };
  return (
    <Stack spacing={2}>
      <Paper sx={{ p: 2 }}>
        <Typography variant="body2" sx={{ mb: 2 }}>
          {t('organiserForms.explain')}
        </Typography>
        {/* What the forms in use look like to each event's exhibitors. */}
        <Typography variant="body2" sx={{ mb: 2 }}>
          <Link component={RouterLink} to="/organiser/forms/gallery">
            {t('organiserForms.galleryLink')}
          </Link>
        </Typography>
        <Box component="dl" sx={{ display: 'grid', gridTemplateColumns: 'max-content 1fr', columnGap: 2, rowGap: 1, m: 0 }}>
          <dt>{t('organiserForms.version')}</dt>
          <dd style={{ margin: 0 }}>
            <code>{data.version}</code>
          </dd>
          <dt>{t('organiserForms.loadedAt')}</dt>
          <dd style={{ margin: 0 }}>
            <UtcTime value={data.loadedAt} />
          </dd>
          <dt>{t('organiserForms.count')}</dt>
          <dd style={{ margin: 0 }}>{data.forms}</dd>
        </Box>
        <Button variant="contained" sx={{ mt: 2 }} onClick={() => void reload()} disabled={busy}>
          {t('organiserForms.reload')}
        </Button>
        {outcome && outcome !== 'refused' && (
          <Alert severity="success" role="status" sx={{ mt: 2 }}>
            {t(outcome === 'changed' ? 'organiserForms.changed' : 'organiserForms.unchanged')}
          </Alert>
        )}
      </Paper>
      {data.refused && (
        <Alert severity="error" role="alert">
          <AlertTitle>{t('organiserForms.refused', { count: data.refused.problems.length })}</AlertTitle>
          <Typography variant="body2" sx={{ mb: 1 }}>
            <UtcTime value={data.refused.at} /> — {t('organiserForms.stillServing', { version: data.version })}
          </Typography>
          <ResponsiveTable
            label={t('organiserForms.problems')}
            size="small"
            outlined={false}
            rows={data.refused.problems}
            rowKey={(_problem, index) => index}
            columns={[
              { key: 'file', label: t('organiserForms.file'), cell: (problem) => <code>{problem.file}</code> },
              { key: 'path', label: t('organiserForms.path'), cell: (problem) => <code>{problem.path || '—'}</code> },
              { key: 'message', label: t('organiserForms.message'), cell: (problem) => problem.message },
            ]}
          />
        </Alert>
      )}
    </Stack>
  );
}
