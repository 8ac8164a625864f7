import { Alert, Chip, Link, Paper, Table, TableBody, TableCell, TableContainer, TableHead, TableRow, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router-dom';
import useSWR from 'swr';
import { findScreen } from '../../../engine/catalogue';
import { useCatalogue } from '../../../lib/catalogue';
import { typedApi } from '../../../lib/api';
import type { ApiData } from '../../../lib/typed-api';
import { useAccountInfo, useUserInfo } from '../../../lib/session';
import { PageLoading } from '../../../components/PageLoading';
import { UtcTime } from '../../../components/UtcTime';
import { STATUS_COLOR } from '../lib/status';
import { PartStatuses } from '../components/PartStatuses';

/** One form of the list, as GET /forms answers it. */
type FormSummary = ApiData<'GET', '/forms'>[number];

function FormTable({ forms, title }: { forms: FormSummary[]; title: string }) {
  const { t } = useTranslation();
  const catalogue = useCatalogue();
  const { data: account } = useAccountInfo();
  return (
    <TableContainer component={Paper} variant="outlined" sx={{ mb: 3 }}>
      <Typography variant="h6" component="h2" sx={{ p: 2, pb: 0 }}>
        {title}
      </Typography>
      <Table aria-label={title}>
        <TableHead>
          <TableRow>
            <TableCell>{t('formRuntime.list.form')}</TableCell>
            <TableCell>{t('formRuntime.list.deadline')}</TableCell>
            <TableCell>{t('formRuntime.list.status')}</TableCell>
            <TableCell>{t('formRuntime.list.action')}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {forms.map((form) => {
            const screen = form.screen ? findScreen(catalogue, form.screen) : undefined;
            const name = t(form.title);
            return (
              <TableRow key={form.id}>
                <TableCell>
                  <Typography sx={{ fontWeight: 600 }}>{name}</Typography>
                  {form.closedPrerequisites.length > 0 ? (
                    <Typography variant="body2" color="warning.main">
                      {t('formRuntime.prerequisiteClosed', { forms: form.closedPrerequisites.join(', '), supportEmail: account?.supportEmail ?? '' })}
                    </Typography>
                  ) : (
                    form.missingPrerequisites.length > 0 && (
                      <Typography variant="body2" color="warning.main">
                        {t('errors.submitFormsFirst')} {form.missingPrerequisites.join(', ')}
                      </Typography>
                    )
                  )}
                </TableCell>
                <TableCell>{form.deadline ? <UtcTime value={form.deadline} offsetMinutes={account?.utcOffsetMinutes ?? 0} /> : '-'}</TableCell>
                <TableCell>
                  {form.parts ? <PartStatuses parts={form.parts} /> : <Chip size="small" color={STATUS_COLOR[form.status]} label={t(`formRuntime.status.${form.status}`)} />}
                  {!form.parts && form.changesNotSubmitted && (
                    <Typography variant="body2" color="warning.main" sx={{ mt: 0.5 }}>
                      {t('formRuntime.list.changesNotSubmitted')}
                    </Typography>
                  )}
                </TableCell>
                <TableCell>
                  {screen && (
                    <Link component={RouterLink} to={`${screen.path}?orderName=${encodeURIComponent(name)}`}>
                      {form.status === 'notStarted' || form.status === 'draft' ? t('formRuntime.list.open') : t('formRuntime.list.view')}
                    </Link>
                  )}
                  {form.submittedAt && (
                    <>
                      {' · '}
                      <Link component={RouterLink} to={`/orderForms/detail?form=${form.id}&orderName=${encodeURIComponent(name)}`}>
                        {t('formRuntime.list.submission')}
                      </Link>
                    </>
                  )}
                </TableCell>
              </TableRow>
            );
          })}
        </TableBody>
      </Table>
    </TableContainer>
  );
}

/** F1: mandatory and optional forms with deadline, status and what must be submitted first. */
export default function OrderFormsPage() {
  const { t } = useTranslation();
  const { data, error } = useSWR('/forms', () => typedApi.get('/forms'));
  const { data: user } = useUserInfo();
  if (error) return <Alert severity="error">{error.message}</Alert>;
  if (!data) return <PageLoading />;
  return (
    <>
      {/* P1: the exhibitor grants its booth contractor a login for the contractor forms. */}
      {user?.role === 'exhibitor' && (
        <Typography sx={{ mb: 2 }}>
          <Link component={RouterLink} to="/myParticipation/contractorAccess">
            {t('members.contractors.link')}
          </Link>
          {' · '}
          {t('members.contractors.linkHelp')}
        </Typography>
      )}
      <FormTable title={t('menu.mandatoryForms')} forms={data.filter((f) => f.mandatory)} />
      <FormTable title={t('formRuntime.list.optional')} forms={data.filter((f) => !f.mandatory)} />
    </>
  );
}
