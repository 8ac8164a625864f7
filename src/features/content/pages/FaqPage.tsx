import { Alert, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router-dom';
import { PageLoading } from '../../../components/PageLoading';
import { useApi } from '../../../lib/use-api';
import { FaqList } from '../components/FaqList';

/** CT5: /faq — the FAQ alone (a search result opens its question: /faq#faq-<id>). */
export default function FaqPage() {
  const { t } = useTranslation();
  const { hash } = useLocation();
  const { data, error } = useApi('GET', '/content/faq');
  if (error) return <Alert severity="error">{error.message}</Alert>;
  if (!data) return <PageLoading />;
  if (data.length === 0) return <Typography color="text.secondary">{t('content.faq.none')}</Typography>;
  return <FaqList entries={data} openId={Number(/^#faq-(\d+)$/.exec(hash)?.[1]) || undefined} />;
}
