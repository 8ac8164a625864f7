import { Box, CircularProgress } from '@mui/material';
import { useTranslation } from 'react-i18next';

export function PageLoading() {
  const { t } = useTranslation();
  return (
    <Box sx={{ display: 'flex', justifyContent: 'center', p: 6 }}>
      <CircularProgress aria-label={t('app.loading')} />
    </Box>
  );
}
