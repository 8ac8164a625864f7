import { Alert, Paper, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { Markdown } from '../../../components/Markdown';
import { PageLoading } from '../../../components/PageLoading';
import { useApi } from '../../../lib/use-api';

/** CT5: the LeadGrab introduction the organiser wrote (how scanning works, team users, the API). */
export default function IntroductionPage() {
  const { t } = useTranslation();
  const { data, error } = useApi('GET', '/system/content/list', { query: { kind: 'introduction' } });
  if (error) return <Alert severity="error">{error.message}</Alert>;
  if (!data) return <PageLoading />;
  if (data.length === 0) return <Typography color="text.secondary">{t('content.introduction.none')}</Typography>;
  return (
    <>
      {data.map((item) => (
        <Paper key={item.id} variant="outlined" sx={{ p: { xs: 2, md: 3 }, mb: 2 }}>
          <Typography variant="h5" component="h2">
            {item.title}
          </Typography>
          <Markdown source={item.body} />
        </Paper>
      ))}
    </>
  );
}
