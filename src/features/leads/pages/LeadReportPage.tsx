import { useState } from 'react';
import { Alert, Box, Button, Card, CardContent, Stack, Table, TableBody, TableCell, TableContainer, TableHead, TableRow, Typography } from '@mui/material';
import Download from '@mui/icons-material/Download';
import { useTranslation } from 'react-i18next';
import { PAGINATION } from '../../../engine/constants';
import { pageSize } from '../../../engine/pagination';
import type { ExportFormat, LeadFilters } from '../../../engine/leads-rules';
import { typedApi } from '../../../lib/api';
import { useApi } from '../../../lib/use-api';
import { showToast } from '../../../lib/toast';
import { Pagination } from '../../../components/Pagination';
import { UtcTime } from '../../../components/UtcTime';
import { LeadFiltersBar } from '../components/LeadFilters';
import { formatEventDay } from '../../../engine/locale-format';
import { currentLanguage } from '../../../lib/i18n';
import { listRequestQuery } from '../lib/leads';
import { ExportMappingCard } from '../components/ExportMappingCard';
import { useUserInfo } from '../../../lib/session';

/** LD4: export the filtered leads (CSV, XLSX) and download any earlier export again. */
export default function LeadReportPage() {
  const { t } = useTranslation();
  const [filters, setFilters] = useState<LeadFilters>({});
  const [paging, setPaging] = useState({ page: PAGINATION.defaultPage, limit: PAGINATION.defaultLimit });
  const [busy, setBusy] = useState<ExportFormat | null>(null);
  const { data: user } = useUserInfo();
  // The export's preview counts every match (the list estimates broad ones).
  const request = { ...listRequestQuery({ ...filters, limit: 10 }), exactTotal: true };
  const { data: matching } = useApi('GET', '/leads', { query: request }, { keepPreviousData: true });
  const { data: downloads, error, mutate } = useApi('GET', '/leads/exports', { query: { page: paging.page, limit: pageSize(paging.limit) } });

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
      {downloads?.eraseAt && <Alert severity="warning">{t('privacy.leadsNotice', { date: formatEventDay(downloads.eraseAt.slice(0, 10), currentLanguage()) })}</Alert>}
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
            <>
              <TableContainer>
                <Table size="small" aria-label={t('leads.report.downloads')}>
                  <TableHead>
                    <TableRow>
                      <TableCell>{t('leads.report.fileName')}</TableCell>
                      <TableCell>{t('leads.report.downloadTime')}</TableCell>
                      <TableCell>{t('leads.report.downloadUser')}</TableCell>
                      <TableCell align="right">{t('leads.report.rows')}</TableCell>
                      <TableCell />
                    </TableRow>
                  </TableHead>
                  <TableBody>
                    {downloads.items.map((record) => (
                      <TableRow key={record.id}>
                        <TableCell>{record.fileName}</TableCell>
                        <TableCell>
                          <UtcTime value={record.createdAt} offsetMinutes={downloads.utcOffsetMinutes} />
                        </TableCell>
                        <TableCell>{record.user}</TableCell>
                        <TableCell align="right">{record.rows}</TableCell>
                        <TableCell align="right">
                          <Button
                            size="small"
                            aria-label={`${t('leads.report.download')} ${record.fileName}`}
                            onClick={() => void typedApi.download('/leads/exports/{id}/file', record.fileName, { path: { id: record.id } }).catch(() => undefined)}
                          >
                            {t('leads.report.download')}
                          </Button>
                        </TableCell>
                      </TableRow>
                    ))}
                  </TableBody>
                </Table>
              </TableContainer>
              <Pagination total={downloads.total} page={downloads.page} limit={downloads.limit} onChange={setPaging} />
            </>
          )}
        </CardContent>
      </Card>
    </Stack>
  );
}
