import { useState } from 'react';
import { Alert, Box, Button, MenuItem, Stack, TextField, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { typedApi } from '../../../lib/api';
import { useApi } from '../../../lib/use-api';
import { PageLoading } from '../../../components/PageLoading';
import { ResponsiveTable } from '../../../components/ResponsiveTable';
import { UtcTime } from '../../../components/UtcTime';
import { useAccountInfo } from '../../../lib/session';
import { pageSize } from '../../../engine/pagination';

// Audit log: who did what and when in the organisation's events, filtered and exported.

const ACTION_GROUPS = ['auth', 'form', 'approval', 'reminder', 'event', 'exhibitor'] as const;

export default function AuditPage() {
  const { t } = useTranslation();
  // K2: times in the organiser's current event's time, in the user's language.
  const offsetMinutes = useAccountInfo().data?.utcOffsetMinutes ?? 0;
  const [action, setAction] = useState('');
  const [who, setWho] = useState('');
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [paging, setPaging] = useState({ page: 1, limit: 20 });
  const filters = { ...(action ? { action: `${action}.` } : {}), ...(who.trim() ? { who: who.trim() } : {}), ...(from ? { from } : {}), ...(to ? { to } : {}) };
  const { data, error } = useApi('GET', '/organiser/audit', { query: { ...filters, page: paging.page, limit: pageSize(paging.limit) } });
  const json = (value: unknown) => (value === null || value === undefined ? '' : JSON.stringify(value));
  const changeFilter = (set: (value: string) => void) => (event: { target: { value: string } }) => {
    set(event.target.value);
    setPaging((p) => ({ ...p, page: 1 }));
  };
  return (
    <Box>
      <Stack direction={{ xs: 'column', md: 'row' }} spacing={2} sx={{ mb: 2 }}>
        <TextField select label={t('organiser.audit.action')} value={action} onChange={changeFilter(setAction)} sx={{ minWidth: 220 }}>
          <MenuItem value="">{t('organiser.audit.anyAction')}</MenuItem>
          {ACTION_GROUPS.map((group) => (
            <MenuItem key={group} value={group}>
              {t(`organiser.audit.actions.${group}`)}
            </MenuItem>
          ))}
        </TextField>
        <TextField label={t('organiser.audit.who')} value={who} onChange={changeFilter(setWho)} />
        <TextField type="date" label={t('organiser.audit.from')} value={from} onChange={changeFilter(setFrom)} slotProps={{ inputLabel: { shrink: true } }} />
        <TextField type="date" label={t('organiser.audit.to')} value={to} onChange={changeFilter(setTo)} slotProps={{ inputLabel: { shrink: true } }} />
        <Button variant="outlined" onClick={() => void typedApi.download('/organiser/audit/export', 'audit-log.xlsx', { query: filters })}>
          {t('organiser.audit.export')}
        </Button>
      </Stack>
      {error && <Alert severity="error">{error.message}</Alert>}
      {!data && !error && <PageLoading />}
      {data?.items.length === 0 && <Typography color="text.secondary">{t('organiser.audit.none')}</Typography>}
      {data && data.items.length > 0 && (
        <ResponsiveTable
          label={t('screens.organiserAudit')}
          size="small"
          outlined={false}
          rows={data.items}
          rowKey={(item) => item.id}
          paging={{ total: data.total, totalKind: data.totalKind, page: data.page, limit: data.limit, onChange: setPaging }}
          columns={[
            { key: 'time', label: t('organiser.audit.at'), cellSx: { whiteSpace: 'nowrap' }, cell: (item) => <UtcTime value={item.at} offsetMinutes={offsetMinutes} /> },
            { key: 'action', label: t('organiser.audit.action'), primary: true, cellSx: {}, cell: (item) => item.action },
            {
              key: 'who',
              label: t('organiser.audit.who'),
              cell: (item) => (
                <>
                  {item.actorName}
                  <Typography variant="caption" component="div" color="text.secondary">
                    {item.actorRole}
                  </Typography>
                </>
              ),
            },
            { key: 'exhibitor', label: t('organiser.audit.exhibitor'), cell: (item) => item.exhibitor ?? '' },
            {
              key: 'details',
              label: t('organiser.audit.details'),
              cellSx: { wordBreak: 'break-word', fontFamily: 'monospace', fontSize: 12 },
              cell: (item) => (
                <>
                  {`${item.subjectType} ${item.subjectId}`.trim()}
                  {item.before !== null && <div>{`${t('organiser.audit.before')}: ${json(item.before)}`}</div>}
                  {item.after !== null && <div>{`${t('organiser.audit.after')}: ${json(item.after)}`}</div>}
                </>
              ),
            },
          ]}
        />
      )}
    </Box>
  );
}
