import { useState } from 'react';
import {
  Alert,
  Box,
  Button,
  Chip,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  FormControlLabel,
  Stack,
  MenuItem,
  Switch,
  TextField,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import { useTranslation } from 'react-i18next';
import { typedApi } from '../../../lib/api';
import { useApi } from '../../../lib/use-api';
import type { ApiData } from '../../../lib/typed-api';
import { ApiError } from '../../../lib/api-client';
import { showToast } from '../../../lib/toast';
import { PageLoading } from '../../../components/PageLoading';
import { EventDateTimeField } from '../../../components/EventDateTimeField';
import { fromEventLocal, toEventLocal } from '../../../engine/organiser-events';
import { formDisplayName } from '../../../engine/forms/definitions';
import { useAccountInfo } from '../../../lib/session';
import { Pagination, usePaging } from '../../../components/Pagination';

// Progress: who has submitted what, per form and per exhibitor; the organiser reopens a
// closed or submit-once form for one exhibitor from its cell.

/** A form's status (F1), as the progress answer names it. */
type Status = NonNullable<ApiData<'GET', '/organiser/progress'>['rows'][number]['statuses'][string]>;

const COLOUR: Record<Status, 'default' | 'info' | 'success' | 'warning' | 'error'> = {
  notStarted: 'default',
  draft: 'info',
  submitted: 'success',
  pendingApproval: 'warning',
  approved: 'success',
  rejected: 'error',
  closed: 'error',
};

interface Target {
  participationId: number;
  exhibitor: string;
  formId: string;
  formLabel: string;
  status: Status;
}

/** K2: event time (never the browser's) as a datetime-local value, `days` from now. */
function eventLocalInput(days: number, offsetMinutes: number): string {
  return toEventLocal(new Date(Date.now() + days * 86_400_000).toISOString(), offsetMinutes);
}

function ReopenDialog({ target, offsetMinutes, onClose, onDone }: { target: Target; offsetMinutes: number; onClose: () => void; onDone: () => void }) {
  const { t } = useTranslation();
  const [until, setUntil] = useState(eventLocalInput(7, offsetMinutes));
  const [extend, setExtend] = useState(target.status === 'closed');
  const [error, setError] = useState('');
  const submit = async () => {
    try {
      await typedApi.post('/organiser/exhibitors/{participationId}/forms/{formId}/reopen', {
        path: { participationId: target.participationId, formId: target.formId },
        body: extend ? { until: fromEventLocal(until, offsetMinutes) || until } : {},
        silent: true,
      });
      showToast('success', t('organiser.progress.reopened'));
      onDone();
    } catch (failure) {
      setError(failure instanceof ApiError ? failure.message : String(failure));
    }
  };
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="xs">
      <DialogTitle>{t('organiser.progress.reopenTitle', { form: target.formLabel, exhibitor: target.exhibitor })}</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 1 }}>
          <FormControlLabel control={<Switch checked={extend} onChange={(e) => setExtend(e.target.checked)} />} label={t('organiser.progress.extendDeadline')} />
          {extend && <EventDateTimeField label={t('organiser.progress.newDeadline')} value={until} onChange={setUntil} offsetMinutes={offsetMinutes} />}
          {error && <Alert severity="error">{error}</Alert>}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('organiser.progress.cancel')}</Button>
        <Button variant="contained" onClick={() => void submit()}>
          {t('organiser.progress.reopen')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

/** A filter of the matrix: one of the options, or every value ("all"). */
function FilterSelect(props: {
  label: string;
  allLabel: string;
  value: string;
  onChange: (value: string) => void;
  options: Array<{ value: string; label: string }>;
  minWidth: number;
}) {
  return (
    <TextField select size="small" label={props.label} value={props.value} onChange={(e) => props.onChange(e.target.value)} sx={{ minWidth: props.minWidth }}>
      <MenuItem value="">{props.allLabel}</MenuItem>
      {props.options.map((option) => (
        <MenuItem key={option.value} value={option.value}>
          {option.label}
        </MenuItem>
      ))}
    </TextField>
  );
}

export default function ProgressPage() {
  const { t } = useTranslation();
  const [missing, setMissing] = useState(false);
  const [target, setTarget] = useState<Target | null>(null);
  const { data: account } = useAccountInfo();
  const [search, setSearch] = useState('');
  const [formFilter, setFormFilter] = useState('');
  const [statusFilter, setStatusFilter] = useState('');
  const { setPaging, query: pageQuery } = usePaging();
  // The server filters and pages (a big show has thousands of exhibitors); the counts in the
  // header stay over every exhibitor. The page shown stays while the next one loads.
  const query = {
    missing,
    ...pageQuery,
    ...(search.trim() ? { keyword: search.trim() } : {}),
    ...(statusFilter ? { formStatus: statusFilter as Status, ...(formFilter ? { form: formFilter } : {}) } : {}),
  };
  const { data, error, mutate } = useApi('GET', '/organiser/progress', { query }, { keepPreviousData: true });
  /** A new filter starts again from the first page. */
  const filtered =
    <T,>(set: (value: T) => void) =>
    (value: T) => {
      set(value);
      setPaging((current) => ({ ...current, page: 1 }));
    };
  const rows = data?.rows ?? [];
  const exportXlsx = () => void typedApi.download('/organiser/progress/export', 'progress.xlsx', { query: { missing } });
  return (
    <Box>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ mb: 2, alignItems: { sm: 'center' } }}>
        <FormControlLabel control={<Switch checked={missing} onChange={(e) => filtered(setMissing)(e.target.checked)} />} label={t('organiser.progress.missingOnly')} />
        <Button variant="outlined" onClick={exportXlsx}>
          {t('organiser.progress.export')}
        </Button>
      </Stack>
      {data && data.exhibitors > 0 && (
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ mb: 2, alignItems: { sm: 'center' } }}>
          <TextField type="search" size="small" label={t('organiser.progress.search')} value={search} onChange={(e) => filtered(setSearch)(e.target.value)} />
          <FilterSelect
            label={t('organiser.progress.filterForm')}
            allLabel={t('organiser.progress.allForms')}
            value={formFilter}
            onChange={filtered(setFormFilter)}
            options={data.forms.map((form) => ({ value: form.id, label: formDisplayName(form.code, t(form.title)) }))}
            minWidth={200}
          />
          <FilterSelect
            label={t('organiser.progress.filterStatus')}
            allLabel={t('organiser.progress.allStatuses')}
            value={statusFilter}
            onChange={filtered(setStatusFilter)}
            options={(Object.keys(COLOUR) as Status[]).map((status) => ({ value: status, label: t(`formRuntime.status.${status}`) }))}
            minWidth={180}
          />
          <Typography role="status" color="text.secondary">
            {t('organiser.progress.shown', { shown: data.total, total: data.exhibitors })}
          </Typography>
        </Stack>
      )}
      {error && <Alert severity="error">{error.message}</Alert>}
      {!data && !error && <PageLoading />}
      {data && data.total === 0 && <Typography color="text.secondary">{t('organiser.progress.none')}</Typography>}
      {data && data.rows.length > 0 && (
        // A matrix of exhibitors by forms scrolls inside its frame on a phone (a card per cell would hide the grid).
        <TableContainer sx={{ maxHeight: '70vh' }} data-scrolls-sideways>
          <Table stickyHeader size="small" aria-label={t('screens.organiserProgress')}>
            <TableHead>
              <TableRow>
                <TableCell sx={{ position: 'sticky', left: 0, zIndex: 3, bgcolor: 'background.paper' }}>{t('organiser.progress.exhibitor')}</TableCell>
                {data.forms.map((form) => (
                  <TableCell key={form.id} title={t(form.title)}>
                    <Typography variant="subtitle2" component="span">
                      {form.code}
                      {form.mandatory ? ' *' : ''}
                    </Typography>
                    <Typography variant="caption" component="div" color="text.secondary">
                      {t('organiser.progress.submittedCount', { count: form.counts.submitted + form.counts.pendingApproval + form.counts.approved })}
                    </Typography>
                  </TableCell>
                ))}
                {data.manualsToAcknowledge > 0 && <TableCell>{t('organiser.progress.manuals')}</TableCell>}
              </TableRow>
            </TableHead>
            <TableBody>
              {rows.map((row) => (
                <TableRow key={row.participationId}>
                  <TableCell component="th" scope="row" sx={{ position: 'sticky', left: 0, bgcolor: 'background.paper' }}>
                    {row.exhibitor}
                    <Typography variant="caption" component="div" color="text.secondary">
                      {row.boothNum}
                    </Typography>
                  </TableCell>
                  {data.forms.map((form) => {
                    const status = row.statuses[form.id]!;
                    const label = t(`formRuntime.status.${status}`);
                    return (
                      <TableCell key={form.id}>
                        <Chip
                          size="small"
                          color={COLOUR[status]}
                          label={label}
                          aria-label={`${row.exhibitor} ${form.code}: ${label}`}
                          onClick={() =>
                            setTarget({ participationId: row.participationId, exhibitor: row.exhibitor, formId: form.id, formLabel: `${form.code} ${t(form.title)}`, status })
                          }
                        />
                        {form.parts && (
                          // A shared form's parts are submitted on their own: which of them is done.
                          <Box
                            component="ul"
                            aria-label={t('organiser.progress.partsOf', { form: form.code, exhibitor: row.exhibitor })}
                            sx={{ listStyle: 'none', p: 0, m: 0, mt: 0.5 }}
                          >
                            {form.parts.map((part) => (
                              <Typography key={part.id} component="li" variant="caption" sx={{ display: 'block' }}>
                                {t(part.title)}: {t(`formRuntime.status.${row.parts?.[form.id]?.[part.id] ?? 'notStarted'}`)}
                              </Typography>
                            ))}
                          </Box>
                        )}
                      </TableCell>
                    );
                  })}
                  {data.manualsToAcknowledge > 0 && (
                    <TableCell>{t('organiser.progress.manualsCount', { acknowledged: row.manualsAcknowledged, total: data.manualsToAcknowledge })}</TableCell>
                  )}
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      )}
      {data && data.total > 0 && <Pagination total={data.total} page={data.page} limit={data.limit} onChange={setPaging} />}
      {target && (
        <ReopenDialog
          target={target}
          offsetMinutes={account?.utcOffsetMinutes ?? 0}
          onClose={() => setTarget(null)}
          onDone={() => {
            setTarget(null);
            void mutate();
          }}
        />
      )}
    </Box>
  );
}
