import { useState } from 'react';
import { Alert, Box, Button, Card, CardContent, Stack, Typography } from '@mui/material';
import Download from '@mui/icons-material/Download';
import { useTranslation } from 'react-i18next';
import type { ExportFormat, LeadFilters } from '../../../engine/leads-rules';
import { typedApi } from '../../../lib/api';
import { useApi } from '../../../lib/use-api';
import { showToast } from '../../../lib/toast';
import { usePaging } from '../../../components/Pagination';
import { ResponsiveTable } from '../../../components/ResponsiveTable';
import { UtcTime } from '../../../components/UtcTime';
import { LeadFiltersBar } from '../components/LeadFilters';
import { formatEventDay } from '../../../engine/locale-format';
import { useDateLocale } from '../../../lib/date-locale';
import { listRequestQuery } from '../lib/leads';
import { ExportMappingCard } from '../components/ExportMappingCard';
import { useUserInfo } from '../../../lib/session';

/** LD4: export the filtered leads (CSV, XLSX) and download any earlier export again. */
export default function LeadReportPage() {
  const { t } = useTranslation();
  const dates = useDateLocale();
  const [filters, setFilters] = useState<LeadFilters>({});
  const { setPaging, query: page } = usePaging();
  const [busy, setBusy] = useState<ExportFormat | null>(null);
  const { data: user } = useUserInfo();
  // The export's preview counts every match (the list estimates broad ones).
  const request = { ...listRequestQuery({ ...filters, limit: 10 }), exactTotal: true };
  const { data: matching } = useApi('GET', '/leads', { query: request }, { keepPreviousData: true });
  const { data: downloads, error, mutate } = useApi('GET', '/leads/exports', { query: page });

  const exportAs = async (format: ExportFormat) => {
    setBusy(format);
    try {
      const record = await typedApi.post('/leads/exports', { body: { format, filters } });
      await typedApi.download('/leads/exports/{id}/file', record.fileName, { path: { id: record.id } });
      showToast('success', t('leads.report.exported', { file: record.fileName, rows: record.rows }));
      setPaging((p) => ({ ...p, page: 1 }));
      await mutate();
    } catch {
      // The API client has shown the reason.
    } finally {
      setBusy(null);
    }
  };

  return (
    <Stack spacing={2}>
      {downloads?.eraseAt && <Alert severity="warning">{t('privacy.leadsNotice', { date: formatEventDay(downloads.eraseAt.slice(0, 10), dates) })}</Alert>}
      <Card variant="outlined">
        <CardContent>
          <LeadFiltersBar value={filters} onChange={setFilters} />
          <Typography sx={{ mb: 2 }}>{t('leads.report.intro', { total: matching?.total ?? '…' })}</Typography>
          <Box sx={{ display: 'flex', gap: 1 }}>
            <Button variant="contained" startIcon={<Download />} disabled={busy !== null} onClick={() => void exportAs('xlsx')}>
              {busy === 'xlsx' ? t('leads.report.exporting') : t('leads.report.exportXlsx')}
            </Button>
            <Button variant="outlined" startIcon={<Download />} disabled={busy !== null} onClick={() => void exportAs('csv')}>
              {busy === 'csv' ? t('leads.report.exporting') : t('leads.report.exportCsv')}
            </Button>
          </Box>
        </CardContent>
      </Card>
      <ExportMappingCard canChange={user?.role === 'exhibitor'} />
      <Card variant="outlined">
        <CardContent>
          <Typography variant="h6" component="h2" sx={{ mb: 1 }}>
            {t('leads.report.downloads')}
          </Typography>
          {error && <Alert severity="error">{error.message}</Alert>}
          {downloads && downloads.total === 0 && <Typography color="text.secondary">{t('leads.report.noDownloads')}</Typography>}
          {downloads && downloads.total > 0 && (
            <ResponsiveTable
              label={t('leads.report.downloads')}
              size="small"
              outlined={false}
              rows={downloads.items}
              rowKey={(record) => record.id}
              paging={{ total: downloads.total, page: downloads.page, limit: downloads.limit, onChange: setPaging }}
              columns={[
                { key: 'fileName', label: t('leads.report.fileName'), primary: true, cellSx: {}, cell: (record) => record.fileName },
                { key: 'time', label: t('leads.report.downloadTime'), cell: (record) => <UtcTime value={record.createdAt} offsetMinutes={downloads.utcOffsetMinutes} /> },
                { key: 'user', label: t('leads.report.downloadUser'), cell: (record) => record.user },
                { key: 'rows', label: t('leads.report.rows'), align: 'right', cell: (record) => record.rows },
                {
                  key: 'download',
                  label: t('leads.report.download'),
                  header: '',
                  actions: true,
                  align: 'right',
                  cell: (record) => (
                    <Button
                      size="small"
                      aria-label={`${t('leads.report.download')} ${record.fileName}`}
                      onClick={() => void typedApi.download('/leads/exports/{id}/file', record.fileName, { path: { id: record.id } }).catch(() => undefined)}
                    >
                      {t('leads.report.download')}
                    </Button>
                  ),
                },
              ]}
            />
          )}
        </CardContent>
      </Card>
    </Stack>
  );
}
