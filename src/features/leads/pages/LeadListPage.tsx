import { Alert, Box, Button, Chip, Link, Table, TableBody, TableCell, TableContainer, TableHead, TableRow, TableSortLabel, Typography } from '@mui/material';
import QrCodeScanner from '@mui/icons-material/QrCodeScanner';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useNavigate, useSearchParams } from 'react-router-dom';
import useSWR from 'swr';
import type { LeadFilters, LeadSort } from '../../../engine/leads-rules';
import { countryName, formatEventDay } from '../../../engine/locale-format';
import { currentLanguage } from '../../../lib/i18n';
import { typedApi } from '../../../lib/api';
import { PageLoading } from '../../../components/PageLoading';
import { Pagination } from '../../../components/Pagination';
import { UtcTime } from '../../../components/UtcTime';
import { LeadFiltersBar } from '../components/LeadFilters';
import { listRequestQuery, queryFromSearch, searchFromQuery } from '../lib/leads';

/** LD2: the leads of the participation (a team user's own), filtered, sorted and paginated. */
export default function LeadListPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [search, setSearch] = useSearchParams();
  const query = queryFromSearch(search);
  const request = listRequestQuery(query);
  const { data, error, isLoading } = useSWR(['/leads', JSON.stringify(request)], () => typedApi.get('/leads', { query: request }), { keepPreviousData: true });
  const update = (next: Partial<typeof query>) => setSearch(searchFromQuery({ ...query, ...next }));
  const setFilters = (filters: LeadFilters) => setSearch(searchFromQuery({ ...filters, limit: query.limit, sort: query.sort, order: query.order, page: 1 }));
  const sortBy = (sort: LeadSort) => update({ sort, order: query.sort === sort && query.order === 'asc' ? 'desc' : 'asc', page: 1 });
  const offset = data?.utcOffsetMinutes ?? 0;
  const label = (group: string, code: string | null) => (code ? t(`leads.${group}.${code}`) : '');

  const sortable = (sort: LeadSort, text: string) => (
    <TableCell sortDirection={query.sort === sort ? query.order : false}>
      <TableSortLabel active={query.sort === sort} direction={query.sort === sort ? query.order : 'asc'} onClick={() => sortBy(sort)}>
        {text}
      </TableSortLabel>
    </TableCell>
  );

  return (
    <Box>
      <Box sx={{ mb: 1 }}>
        <Button component={RouterLink} to="/digital-tools/scanner" variant="outlined" startIcon={<QrCodeScanner />}>
          {t('leads.list.openScanner')}
        </Button>
      </Box>
      <LeadFiltersBar value={query} onChange={setFilters} />
      {error && <Alert severity="error">{error.message}</Alert>}
      {data?.eraseAt && (
        <Alert severity="warning" sx={{ mb: 2 }}>
          {t('privacy.leadsNotice', { date: formatEventDay(data.eraseAt.slice(0, 10), currentLanguage()) })}
        </Alert>
      )}
      {isLoading && !data && <PageLoading />}
      {data && (
        <>
          <TableContainer>
            <Table size="small" aria-label={t('screens.leads')}>
              <TableHead>
                <TableRow>
                  {sortable('name', t('leads.field.visitorName'))}
                  {sortable('company', t('leads.field.company'))}
                  <TableCell>{t('leads.field.country')}</TableCell>
                  <TableCell>{t('leads.field.leadType')}</TableCell>
                  <TableCell>{t('leads.field.temperature')}</TableCell>
                  <TableCell>{t('leads.field.followUp')}</TableCell>
                  <TableCell>{t('leads.field.scannedBy')}</TableCell>
                  {sortable('scannedAt', t('leads.field.scannedAt'))}
                </TableRow>
              </TableHead>
              <TableBody>
                {data.items.map((lead) => {
                  const href = `/lead/lead-detail?id=${lead.id}`;
                  return (
                    <TableRow key={lead.id} hover sx={{ cursor: 'pointer' }} onClick={() => navigate(href)}>
                      <TableCell>
                        <Link
                          component={RouterLink}
                          to={href}
                          onClick={(event) => event.stopPropagation()}
                          aria-label={t('leads.list.open', { name: lead.visitorName || lead.badgeCode })}
                        >
                          {lead.visitorName || lead.badgeCode}
                        </Link>
                        {!lead.badgeKnown && <Chip size="small" color="warning" variant="outlined" label={t('leads.list.unknownBadge')} sx={{ ml: 1 }} />}
                      </TableCell>
                      <TableCell>{lead.company}</TableCell>
                      <TableCell>{countryName(lead.country, currentLanguage())}</TableCell>
                      <TableCell>{label('type', lead.leadType)}</TableCell>
                      <TableCell>{label('temperature', lead.temperature)}</TableCell>
                      <TableCell>{label('followUp', lead.followUp)}</TableCell>
                      <TableCell>{lead.scannedBy.name}</TableCell>
                      <TableCell>
                        <UtcTime value={lead.scannedAt} offsetMinutes={offset} />
                      </TableCell>
                    </TableRow>
                  );
                })}
              </TableBody>
            </Table>
          </TableContainer>
          {data.items.length === 0 && (
            <Typography color="text.secondary" sx={{ py: 3 }}>
              {t('leads.list.empty')}
            </Typography>
          )}
          <Pagination total={data.total} totalKind={data.totalKind} page={data.page} limit={data.limit} onChange={(next) => update(next)} />
        </>
      )}
    </Box>
  );
}
