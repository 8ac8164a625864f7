import { Alert, Box, Button, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { typedApi } from '../../../lib/api';
import { useApi } from '../../../lib/use-api';
import { PageLoading } from '../../../components/PageLoading';
import { ResponsiveTable } from '../../../components/ResponsiveTable';

// Submissions export: one spreadsheet per form across the event's exhibitors.

export default function SubmissionsPage() {
  const { t } = useTranslation();
  const { data, error } = useApi('GET', '/organiser/submissions');
  return (
    <Box>
      <Typography sx={{ mb: 2 }}>{t('organiser.submissions.intro')}</Typography>
      {error && <Alert severity="error">{error.message}</Alert>}
      {!data && !error && <PageLoading />}
      {data && (
        <ResponsiveTable
          label={t('screens.organiserSubmissions')}
          size="small"
          outlined={false}
          rows={data}
          rowKey={(form) => form.id}
          columns={[
            { key: 'form', label: t('organiser.submissions.form'), primary: true, rowHeader: true, cellSx: {}, cell: (form) => `${form.code} ${t(form.title)}` },
            { key: 'count', label: t('organiser.submissions.count'), align: 'right', cell: (form) => form.submissions },
            {
              key: 'download',
              label: t('organiser.submissions.download'),
              header: '',
              actions: true,
              align: 'right',
              cell: (form) => (
                <Button
                  size="small"
                  variant="outlined"
                  disabled={form.submissions === 0}
                  // The name starts with the words on the button (WCAG 2.5.3), then says which form.
                  aria-label={`${t('organiser.submissions.download')}: ${form.code} ${t(form.title)}`}
                  onClick={() => void typedApi.download('/organiser/submissions/{formId}/export', `${form.code}.xlsx`, { path: { formId: form.id } })}
                >
                  {t('organiser.submissions.download')}
                </Button>
              ),
            },
          ]}
        />
      )}
    </Box>
  );
}
