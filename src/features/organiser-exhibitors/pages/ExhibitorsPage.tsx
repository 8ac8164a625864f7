import { FlagLabel } from '../../../components/FlagLabel';
import { useState } from 'react';
import { Alert, Box, Button, Chip, MenuItem, TextField, Typography } from '@mui/material';
import { ResponsiveTable } from '../../../components/ResponsiveTable';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router-dom';
import { PAGINATION } from '../../../engine/constants';
import { PageLoading } from '../../../components/PageLoading';
import { Pagination } from '../../../components/Pagination';
import { typedApi } from '../../../lib/api';
import type { ApiQuery } from '../../../lib/typed-api';
import { useApi } from '../../../lib/use-api';
import { pageSize } from '../../../engine/pagination';
import { showToast } from '../../../lib/toast';

const FORM_STATUSES = ['notStarted', 'draft', 'submitted', 'pendingApproval', 'approved', 'rejected', 'closed'] as const;

type ExhibitorQuery = ApiQuery<'GET', '/organiser/exhibitors'>;

/** The current event's exhibitors — search, filters, pages, and the account actions. */
export default function ExhibitorsPage() {
  const { t } = useTranslation();
  const [filters, setFilters] = useState({ keyword: '', module: '', flag: '', form: '', formStatus: '' });
  const [paging, setPaging] = useState({ page: PAGINATION.defaultPage, limit: PAGINATION.defaultLimit });
  const params: ExhibitorQuery = { page: paging.page, limit: pageSize(paging.limit) };
  for (const key of ['keyword', 'module', 'flag'] as const) if (filters[key].trim()) params[key] = filters[key].trim();
  // A form status filter needs both the form and the status.
  const formStatus = FORM_STATUSES.find((status) => status === filters.formStatus);
  if (filters.form && formStatus) Object.assign(params, { form: filters.form, formStatus });
  const { data, error, mutate } = useApi('GET', '/organiser/exhibitors', { query: params });
  const { data: vocabulary } = useApi('GET', '/organiser/vocabulary');
  const forms = data?.items[0] ? Object.keys(data.items[0].forms) : [];
  const filter = (key: keyof typeof filters, value: string) => {
    setFilters((current) => ({ ...current, [key]: value }));
    setPaging((current) => ({ ...current, page: 1 }));
  };
  const act = async (call: Promise<unknown>, message: string) => {
    await call;
    showToast('success', t(message));
    await mutate();
  };

  return (
    <Box sx={{ display: 'grid', gap: 2 }}>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1 }}>
        <Button variant="contained" component={RouterLink} to="/organiser/exhibitors/edit">
          {t('organiser.exhibitors.new')}
        </Button>
        <Button variant="outlined" component={RouterLink} to="/organiser/exhibitors/import">
          {t('screens.organiserImport')}
        </Button>
      </Box>
      <Box sx={{ display: 'grid', gap: 1, gridTemplateColumns: { xs: '1fr', sm: 'repeat(5, 1fr)' } }}>
        <TextField size="small" label={t('organiser.exhibitors.search')} value={filters.keyword} onChange={(e) => filter('keyword', e.target.value)} />
        <TextField size="small" select label={t('organiser.event.modules')} value={filters.module} onChange={(e) => filter('module', e.target.value)}>
          <MenuItem value="">{t('organiser.exhibitors.any')}</MenuItem>
          {(vocabulary?.modules ?? []).map((module) => (
            <MenuItem key={module} value={module}>
              {module}
            </MenuItem>
          ))}
        </TextField>
        <TextField size="small" select label={t('organiser.event.flags')} value={filters.flag} onChange={(e) => filter('flag', e.target.value)}>
          <MenuItem value="">{t('organiser.exhibitors.any')}</MenuItem>
          {(vocabulary?.flags ?? []).map((flag) => (
            <MenuItem key={flag} value={flag}>
              <FlagLabel flag={flag} />
            </MenuItem>
          ))}
        </TextField>
        <TextField size="small" select label={t('organiser.exhibitors.form')} value={filters.form} onChange={(e) => filter('form', e.target.value)}>
          <MenuItem value="">{t('organiser.exhibitors.any')}</MenuItem>
          {forms.map((form) => (
            <MenuItem key={form} value={form}>
              {form.toUpperCase()}
            </MenuItem>
          ))}
        </TextField>
        <TextField size="small" select label={t('organiser.exhibitors.formStatus')} value={filters.formStatus} onChange={(e) => filter('formStatus', e.target.value)}>
          <MenuItem value="">{t('organiser.exhibitors.any')}</MenuItem>
          {FORM_STATUSES.map((status) => (
            <MenuItem key={status} value={status}>
              {t(`formRuntime.status.${status}`)}
            </MenuItem>
          ))}
        </TextField>
      </Box>
      {error && <Alert severity="error">{error.message}</Alert>}
      {!data && !error && <PageLoading />}
      {data?.total === 0 && <Typography color="text.secondary">{t('organiser.exhibitors.none')}</Typography>}
      {data && data.total > 0 && (
        <>
          <ResponsiveTable
            label={t('screens.organiserExhibitors')}
            size="small"
            rows={data.items}
            rowKey={(row) => row.id}
            columns={[
              {
                key: 'name',
                label: t('organiser.import.columns.name'),
                primary: true,
                cell: (row) => (
                  <>
                    {row.name} {row.status === 'disabled' && <Chip size="small" label={t('organiser.exhibitors.disabled')} />}
                  </>
                ),
              },
              { key: 'code', label: t('organiser.import.columns.code'), cell: (row) => row.code },
              { key: 'booth', label: t('organiser.import.columns.boothNum'), cell: (row) => row.boothNum },
              {
                key: 'account',
                label: t('organiser.import.columns.account'),
                cell: (row) => (
                  <>
                    {row.account}
                    <Typography variant="body2" color="text.secondary">
                      {row.email}
                    </Typography>
                  </>
                ),
              },
              { key: 'modules', label: t('organiser.event.modules'), cell: (row) => row.modules.join(', ') },
              {
                key: 'actions',
                label: t('organiser.events.edit'),
                header: '',
                actions: true,
                cell: (row) => (
                  <Box sx={{ whiteSpace: { sm: 'nowrap' } }}>
                    <Button size="small" component={RouterLink} to={`/organiser/exhibitors/edit?id=${row.id}`} aria-label={`${t('organiser.events.edit')} ${row.name}`}>
                      {t('organiser.events.edit')}
                    </Button>
                    <Button
                      size="small"
                      onClick={() => void act(typedApi.post('/organiser/exhibitors/{id}/activation', { path: { id: row.id }, body: {} }), 'organiser.exhibitors.activationSent')}
                      aria-label={`${t('organiser.exhibitors.sendActivation')} ${row.name}`}
                    >
                      {t('organiser.exhibitors.sendActivation')}
                    </Button>
                    <Button
                      size="small"
                      onClick={() => void act(typedApi.post('/organiser/exhibitors/{id}/password-reset', { path: { id: row.id }, body: {} }), 'organiser.exhibitors.resetSent')}
                    >
                      {t('organiser.exhibitors.reset')}
                    </Button>
                    <Button
                      size="small"
                      color={row.status === 'active' ? 'error' : 'primary'}
                      onClick={() =>
                        void act(
                          typedApi.put('/organiser/exhibitors/{id}/status', { path: { id: row.id }, body: { status: row.status === 'active' ? 'disabled' : 'active' } }),
                          'success.modified',
                        )
                      }
                    >
                      {t(row.status === 'active' ? 'organiser.exhibitors.deactivate' : 'organiser.exhibitors.activate')}
                    </Button>
                  </Box>
                ),
              },
            ]}
          />
          <Pagination total={data.total} page={data.page} limit={data.limit} onChange={setPaging} />
        </>
      )}
    </Box>
  );
}
