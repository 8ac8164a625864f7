import { Button, Card, CardContent, Stack, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router-dom';

export function ErrorCard({ code, title, text }: { code: string; title: string; text: string }) {
  const { t } = useTranslation();
  return (
    <Card sx={{ maxWidth: 480, width: '100%' }}>
      <CardContent sx={{ p: 4 }}>
        <Stack spacing={2} sx={{ alignItems: 'flex-start' }}>
          <Typography variant="h2" component="p" color="primary" sx={{ fontWeight: 700 }} aria-hidden>
            {code}
          </Typography>
          <Typography variant="h5" component="h1">
            {title}
          </Typography>
          <Typography color="text.secondary">{text}</Typography>
          <Button component={RouterLink} to="/home" variant="contained">
            {t('errors.goHome')}
          </Button>
        </Stack>
      </CardContent>
    </Card>
  );
}
