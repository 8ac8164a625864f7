import { Alert, Box, Button, Table, TableBody, TableCell, TableContainer, TableHead, TableRow, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { typedApi } from '../../../lib/api';
import { useApi } from '../../../lib/use-api';
import { PageLoading } from '../../../components/PageLoading';

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
        <TableContainer>
          <Table size="small" aria-label={t('screens.organiserSubmissions')}>
            <TableHead>
              <TableRow>
                <TableCell>{t('organiser.submissions.form')}</TableCell>
                <TableCell align="right">{t('organiser.submissions.count')}</TableCell>
                <TableCell />
              </TableRow>
            </TableHead>
            <TableBody>
              {data.map((form) => {
                const label = `${form.code} ${t(form.title)}`;
                return (
                  <TableRow key={form.id}>
                    <TableCell component="th" scope="row">
                      {label}
                    </TableCell>
                    <TableCell align="right">{form.submissions}</TableCell>
                    <TableCell align="right">
                      <Button
                        size="small"
                        variant="outlined"
                        disabled={form.submissions === 0}
                        // The name starts with the words on the button (WCAG 2.5.3), then says which form.
                        aria-label={`${t('organiser.submissions.download')}: ${label}`}
                        onClick={() => void typedApi.download('/organiser/submissions/{formId}/export', `${form.code}.xlsx`, { path: { formId: form.id } })}
                      >
                        {t('organiser.submissions.download')}
                      </Button>
                    </TableCell>
                  </TableRow>
                );
              })}
            </TableBody>
          </Table>
        </TableContainer>
      )}
    </Box>
  );
}
