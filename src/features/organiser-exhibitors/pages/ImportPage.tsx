import { useRef, useState } from 'react';
import { Alert, Box, Button, Paper, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { ResponsiveTable } from '../../../components/ResponsiveTable';
import { typedApi } from '../../../lib/api';
import type { ApiData } from '../../../lib/typed-api';
import { showToast } from '../../../lib/toast';

type Report = ApiData<'POST', '/organiser/exhibitors/import'>;

/** Exhibitors from XLSX or CSV — the template, a dry run with its report, then the commit. */
export default function ImportPage() {
  const { t } = useTranslation();
  const input = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<File | null>(null);
  const [report, setReport] = useState<Report | null>(null);
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);

  const send = async (commit: boolean) => {
    if (!file) return;
    const body = new FormData();
    body.append('file', file, file.name);
    setBusy(true);
    setError('');
    try {
      const result = await typedApi.post('/organiser/exhibitors/import', { ...(commit ? { query: { commit: true } } : {}), body, silent: true, skipDuplicateCheck: true });
      setReport(result);
      if (commit) showToast('success', t('organiser.import.done', { created: result.created, updated: result.updated }));
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : String(failure));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Box sx={{ display: 'grid', gap: 2, maxWidth: 960 }}>
      <Typography>{t('organiser.import.intro')}</Typography>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1 }}>
        <Button variant="outlined" onClick={() => void typedApi.download('/organiser/exhibitors/import/template', 'exhibitors-template.xlsx', { query: { format: 'xlsx' } })}>
          {t('organiser.import.templateXlsx')}
        </Button>
        <Button variant="outlined" onClick={() => void typedApi.download('/organiser/exhibitors/import/template', 'exhibitors-template.csv', { query: { format: 'csv' } })}>
          {t('organiser.import.templateCsv')}
        </Button>
      </Box>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, alignItems: 'center' }}>
        <Button variant="contained" component="label">
          {t('organiser.import.choose')}
          <input
            ref={input}
            hidden
            type="file"
            aria-label={t('organiser.import.choose')}
            accept=".xlsx,.csv,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
            onChange={(change) => {
              setFile(change.target.files?.[0] ?? null);
              setReport(null);
            }}
          />
        </Button>
        {file && <Typography>{file.name}</Typography>}
        <Button variant="contained" disabled={!file || busy} onClick={() => void send(false)}>
          {t('organiser.import.check')}
        </Button>
      </Box>
      {error && <Alert severity="error">{error}</Alert>}
      {report && (
        <Paper variant="outlined" sx={{ p: 2, display: 'grid', gap: 2 }} aria-label={t('organiser.import.report')} component="section">
          <Typography variant="h6" component="h2">
            {t('organiser.import.report')}
          </Typography>
          <Alert severity={report.problems.length > 0 ? 'warning' : 'success'}>
            {t(report.dryRun ? 'organiser.import.summaryDry' : 'organiser.import.summaryDone', {
              rows: report.rows,
              good: report.good,
              created: report.created,
              updated: report.updated,
            })}
          </Alert>
          {report.unchanged > 0 && <Typography>{t('organiser.import.unchangedRows', { unchanged: report.unchanged })}</Typography>}
          {report.problems.length > 0 && (
            <ResponsiveTable
              label={t('organiser.import.problems')}
              size="small"
              outlined={false}
              rows={report.problems}
              rowKey={(_problem, index) => index}
              columns={[
                { key: 'row', label: t('organiser.import.row'), cell: (problem) => problem.row },
                { key: 'column', label: t('organiser.import.column'), cell: (problem) => problem.column },
                { key: 'problem', label: t('organiser.import.problem'), cell: (problem) => problem.problem },
              ]}
            />
          )}
          {report.dryRun && report.good > 0 && (
            <Box>
              <Button variant="contained" color="success" disabled={busy} onClick={() => void send(true)}>
                {t('organiser.import.commit', { count: report.good })}
              </Button>
            </Box>
          )}
        </Paper>
      )}
    </Box>
  );
}
