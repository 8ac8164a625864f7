import { Box, Link, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';

/** Y6: terms-of-use link and copyright. */
export function Footer({ termsUrl, organiser }: { termsUrl?: string; organiser?: string }) {
  const { t } = useTranslation();
  return (
    <Box component="footer" sx={{ py: 2, px: 3, borderTop: 1, borderColor: 'divider', display: 'flex', gap: 2, flexWrap: 'wrap', justifyContent: 'space-between' }}>
      <Typography variant="body2" color="text.secondary">
        {t('app.copyright', { year: new Date().getFullYear(), organiser: organiser || t('app.name') })}
      </Typography>
      {termsUrl && (
        <Link href={termsUrl} target="_blank" rel="noopener noreferrer" variant="body2">
          {t('app.termsOfUse')}
        </Link>
      )}
    </Box>
  );
}
