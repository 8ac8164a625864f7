import { useId } from 'react';
import { Alert, Box, Chip, Link, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router-dom';
import { findScreen } from '../../../engine/catalogue';
import { useCatalogue } from '../../../lib/catalogue';
import { useApi } from '../../../lib/use-api';
import type { ApiData } from '../../../lib/typed-api';
import { useAccountInfo, useUserInfo } from '../../../lib/session';
import { PageLoading } from '../../../components/PageLoading';
import { UtcTime } from '../../../components/UtcTime';
import { ResponsiveTable, type ResponsiveColumn } from '../../../components/ResponsiveTable';
import { STATUS_COLOR } from '../components/status-colour';
import { PartStatuses } from '../components/PartStatuses';

/** One form of the list, as GET /forms answers it. */
type FormSummary = ApiData<'GET', '/forms'>[number];

function FormTable({ forms, title }: { forms: FormSummary[]; title: string }) {
  const { t } = useTranslation();
  const catalogue = useCatalogue();
  const { data: account } = useAccountInfo();
  const headingId = useId();
  const name = (form: FormSummary) => t(form.title);
  const formLink = (form: FormSummary) => {
    const screen = form.screen ? findScreen(catalogue, form.screen) : undefined;
    return screen ? `${screen.path}?orderName=${encodeURIComponent(name(form))}` : undefined;
  };
  const columns: ResponsiveColumn<FormSummary>[] = [
    {
      key: 'form',
      label: t('formRuntime.list.form'),
      primary: true,
      cell: (form) => {
        const link = formLink(form);
        return (
          <>
            {/* The form's name opens it, as the action does. */}
            {link ? (
              <Link component={RouterLink} to={link} sx={{ fontWeight: 600 }}>
                {name(form)}
              </Link>
            ) : (
              <Typography component="span" sx={{ fontWeight: 600 }}>
                {name(form)}
              </Typography>
            )}
            {form.closedPrerequisites.length > 0 ? (
              <Typography variant="body2" color="warning.main" sx={{ fontWeight: 400 }}>
                {t('formRuntime.prerequisiteClosed', { forms: form.closedPrerequisites.join(', '), supportEmail: account?.supportEmail ?? '' })}
              </Typography>
            ) : (
              form.missingPrerequisites.length > 0 && (
                <Typography variant="body2" color="warning.main" sx={{ fontWeight: 400 }}>
                  {t('errors.submitFormsFirst')} {form.missingPrerequisites.join(', ')}
                </Typography>
              )
            )}
          </>
        );
      },
    },
    {
      key: 'deadline',
      label: t('formRuntime.list.deadline'),
      cell: (form) => (form.deadline ? <UtcTime value={form.deadline} offsetMinutes={account?.utcOffsetMinutes ?? 0} /> : '-'),
    },
    {
      key: 'status',
      label: t('formRuntime.list.status'),
      cell: (form) => (
        <>
          {form.parts ? <PartStatuses parts={form.parts} /> : <Chip size="small" color={STATUS_COLOR[form.status]} label={t(`formRuntime.status.${form.status}`)} />}
          {!form.parts && form.changesNotSubmitted && (
            <Typography variant="body2" color="warning.main" sx={{ mt: 0.5 }}>
              {t('formRuntime.list.changesNotSubmitted')}
            </Typography>
          )}
        </>
      ),
    },
    {
      key: 'action',
      label: t('formRuntime.list.action'),
      actions: true,
      cell: (form) => {
        const link = formLink(form);
        return (
          <Box component="span">
            {link && (
              <Link component={RouterLink} to={link}>
                {form.status === 'notStarted' || form.status === 'draft' ? t('formRuntime.list.open') : t('formRuntime.list.view')}
              </Link>
            )}
            {form.submittedAt && (
              <>
                {' · '}
                <Link component={RouterLink} to={`/orderForms/detail?form=${form.id}&orderName=${encodeURIComponent(name(form))}`}>
                  {t('formRuntime.list.submission')}
                </Link>
              </>
            )}
          </Box>
        );
      },
    },
  ];
  return (
    <Box component="section" aria-labelledby={headingId} sx={{ mb: 3 }}>
      <ResponsiveTable
        label={title}
        title={
          <Typography variant="h6" component="h2" id={headingId} sx={{ p: { xs: 0, sm: 2 }, pb: { xs: 1, sm: 0 } }}>
            {title}
          </Typography>
        }
        columns={columns}
        rows={forms}
        rowKey={(form) => form.id}
      />
    </Box>
  );
}

/** F1: mandatory and optional forms with deadline, status and what must be submitted first. */
export default function OrderFormsPage() {
  const { t } = useTranslation();
  const { data, error } = useApi('GET', '/forms');
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
