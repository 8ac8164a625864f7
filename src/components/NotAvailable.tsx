import { Paper, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';

/** The honest empty state of a screen whose capability is still to be built. */
export function NotAvailable() {
  const { t } = useTranslation();
  return (
    <Paper variant="outlined" sx={{ p: 4, textAlign: 'center' }}>
      <Typography variant="h6" component="p" gutterBottom>
        {t('layout.notAvailableTitle')}
      </Typography>
      <Typography color="text.secondary">{t('layout.notAvailableText')}</Typography>
    </Paper>
  );
}
