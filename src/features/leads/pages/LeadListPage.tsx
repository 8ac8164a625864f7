import { Alert, Box, Button, Chip, Link, TableSortLabel, Typography } from '@mui/material';
import QrCodeScanner from '@mui/icons-material/QrCodeScanner';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useNavigate, useSearchParams } from 'react-router-dom';
import type { LeadFilters, LeadSort } from '../../../engine/leads-rules';
import { countryName, formatEventDay } from '../../../engine/locale-format';
import { currentLanguage } from '../../../lib/i18n';
import { useDateLocale } from '../../../lib/date-locale';
import { useApi } from '../../../lib/use-api';
import { PageLoading } from '../../../components/PageLoading';
import { Pagination } from '../../../components/Pagination';
import { UtcTime } from '../../../components/UtcTime';
import { ResponsiveTable, type ResponsiveColumn } from '../../../components/ResponsiveTable';
import { LeadFiltersBar } from '../components/LeadFilters';
import { listRequestQuery, queryFromSearch, searchFromQuery } from '../lib/leads';

/** LD2: the leads of the participation (a team user's own), filtered, sorted and paginated. */
export default function LeadListPage() {
  const { t } = useTranslation();
  const dates = useDateLocale();
  const navigate = useNavigate();
  const [search, setSearch] = useSearchParams();
  const query = queryFromSearch(search);
  const request = listRequestQuery(query);
  const { data, error, isLoading } = useApi('GET', '/leads', { query: request }, { keepPreviousData: true });
  const update = (next: Partial<typeof query>) => setSearch(searchFromQuery({ ...query, ...next }));
  const setFilters = (filters: LeadFilters) => setSearch(searchFromQuery({ ...filters, limit: query.limit, sort: query.sort, order: query.order, page: 1 }));
  const sortBy = (sort: LeadSort) => update({ sort, order: query.sort === sort && query.order === 'asc' ? 'desc' : 'asc', page: 1 });
  const offset = data?.utcOffsetMinutes ?? 0;
  const label = (group: string, code: string | null) => (code ? t(`leads.${group}.${code}`) : '');

  type Lead = NonNullable<typeof data>['items'][number];
  const sortable = (sort: LeadSort, text: string) => ({
    label: text,
    sortDirection: query.sort === sort ? query.order : (false as const),
    header: (
      <TableSortLabel active={query.sort === sort} direction={query.sort === sort ? query.order : 'asc'} onClick={() => sortBy(sort)}>
        {text}
      </TableSortLabel>
    ),
  });
  const columns: ResponsiveColumn<Lead>[] = [
    {
      key: 'name',
      ...sortable('name', t('leads.field.visitorName')),
      primary: true,
      cell: (lead) => (
        <>
          <Link
            component={RouterLink}
            to={`/lead/lead-detail?id=${lead.id}`}
            onClick={(event) => event.stopPropagation()}
            aria-label={t('leads.list.open', { name: lead.visitorName || lead.badgeCode })}
          >
            {lead.visitorName || lead.badgeCode}
          </Link>
          {!lead.badgeKnown && <Chip size="small" color="warning" variant="outlined" label={t('leads.list.unknownBadge')} sx={{ ml: 1 }} />}
        </>
      ),
    },
    { key: 'company', ...sortable('company', t('leads.field.company')), cell: (lead) => lead.company },
    { key: 'country', label: t('leads.field.country'), cell: (lead) => countryName(lead.country, currentLanguage()) },
    { key: 'type', label: t('leads.field.leadType'), cell: (lead) => label('type', lead.leadType) },
    { key: 'temperature', label: t('leads.field.temperature'), cell: (lead) => label('temperature', lead.temperature) },
    { key: 'followUp', label: t('leads.field.followUp'), cell: (lead) => label('followUp', lead.followUp) },
    { key: 'scannedBy', label: t('leads.field.scannedBy'), cell: (lead) => lead.scannedBy.name },
    { key: 'scannedAt', ...sortable('scannedAt', t('leads.field.scannedAt')), cell: (lead) => <UtcTime value={lead.scannedAt} offsetMinutes={offset} /> },
  ];

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
          {t('privacy.leadsNotice', { date: formatEventDay(data.eraseAt.slice(0, 10), dates) })}
        </Alert>
      )}
      {isLoading && !data && <PageLoading />}
      {data && (
        <>
          <ResponsiveTable
            label={t('screens.leads')}
            size="small"
            outlined={false}
            columns={columns}
            rows={data.items}
            rowKey={(lead) => lead.id}
            rowProps={(lead) => ({ hover: true, sx: { cursor: 'pointer' }, onClick: () => navigate(`/lead/lead-detail?id=${lead.id}`) })}
          />
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
