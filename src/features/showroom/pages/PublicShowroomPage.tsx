import { Alert, Box, CircularProgress, Container, Link, Typography } from '@mui/material';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import { useApi } from '../../../lib/use-api';
import { ShowroomView } from '../components/ShowroomView';

/** CT5: /showroom?s=… — a published showroom, for anyone, without login. */
export default function PublicShowroomPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const slug = params.get('s') ?? '';
  const { data, error } = useApi('GET', '/public/showrooms/{slug}', { path: { slug: slug ?? '' }, auth: false, silent: true }, { enabled: Boolean(slug) });
  useEffect(() => {
    if (data) document.title = `${data.showroom.company.name || data.exhibitor} — ${data.event}`;
  }, [data]);
  return (
    <Container maxWidth="lg" sx={{ py: 3 }}>
      {!slug || error ? (
        <Alert severity="info">{t('showroom.notFound')}</Alert>
      ) : !data ? (
        <CircularProgress aria-label={t('app.loading')} />
      ) : (
        <>
          <Box sx={{ mb: 3 }}>
            <Typography color="text.secondary">
              {data.eventUrl ? (
                <Link href={data.eventUrl} target="_blank" rel="noopener noreferrer">
                  {data.event}
                </Link>
              ) : (
                data.event
              )}{' '}
              · {data.dates} · {data.venue}
            </Typography>
            <Typography variant="h6" component="p">
              {t('showroom.visitUs', { booth: data.booth })}
            </Typography>
          </Box>
          <ShowroomView
            showroom={{ ...data.showroom, company: { ...data.showroom.company, name: data.showroom.company.name || data.exhibitor } }}
            imageUrl={(file) => `/oga/public/showrooms/${encodeURIComponent(slug)}/files/${file.id}`}
          />
        </>
      )}
    </Container>
  );
}
