import { Alert, Box, Button, Paper, Stack, Switch, FormControlLabel, TextField, Typography } from '@mui/material';
import QRCode from 'qrcode';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router-dom';
import { PageLoading } from '../../../components/PageLoading';
import { typedApi } from '../../../lib/api';
import { useApi } from '../../../lib/use-api';
import { useUserInfo } from '../../../lib/session';
import { showToast } from '../../../lib/toast';
import { ShowroomView, type ShowroomFile } from '../components/ShowroomView';

/** CT5: preview of the showroom built from S01/S02, publish or unpublish, its address and QR code. */
export default function DigitalShowroomPage() {
  const { t } = useTranslation();
  const { data: user } = useUserInfo();
  const { data, error, mutate } = useApi('GET', '/showroom');
  const [qr, setQr] = useState('');
  const [images, setImages] = useState<Record<string, string>>({});
  useEffect(() => {
    if (data?.url) void QRCode.toString(data.url, { type: 'svg', margin: 2, errorCorrectionLevel: 'M' }).then(setQr);
  }, [data?.url]);
  // The preview shows the exhibitor's own uploads through the authenticated download helper.
  useEffect(() => {
    const files = data ? [data.showroom.company.logo, ...data.showroom.products.map((p) => p.image)].filter((f): f is ShowroomFile => f !== null) : [];
    let cancelled = false;
    const urls: string[] = [];
    void Promise.all(
      files.map(async (file) => {
        const blob = await typedApi.get('/uploads/{id}', { path: { id: file.id }, responseType: 'blob', silent: true }).catch(() => null);
        if (!blob || cancelled) return null;
        const url = URL.createObjectURL(blob);
        urls.push(url);
        return [file.id, url] as const;
      }),
    ).then((entries) => !cancelled && setImages(Object.fromEntries(entries.filter((e): e is readonly [string, string] => e !== null))));
    return () => {
      cancelled = true;
      urls.forEach((url) => URL.revokeObjectURL(url));
    };
  }, [data]);
  if (error) return <Alert severity="error">{error.message}</Alert>;
  if (!data) return <PageLoading />;
  const isExhibitor = user?.role === 'exhibitor';
  const toggle = async (published: boolean) => {
    await mutate(await typedApi.put('/showroom', { body: { published } }), { revalidate: false });
    showToast('success', t(published ? 'showroom.publishedToast' : 'showroom.unpublishedToast'));
  };
  const empty = !data.showroom.company.name && data.showroom.products.length === 0;
  return (
    <Stack spacing={2}>
      <Paper variant="outlined" sx={{ p: 2 }}>
        <Stack direction={{ xs: 'column', md: 'row' }} spacing={2} sx={{ alignItems: { md: 'center' } }}>
          <Box sx={{ flex: 1 }}>
            <FormControlLabel
              control={<Switch checked={data.published} disabled={!isExhibitor} onChange={(e) => void toggle(e.target.checked)} />}
              label={data.published ? t('showroom.published') : t('showroom.notPublished')}
            />
            <TextField fullWidth size="small" label={t('showroom.address')} value={data.url} slotProps={{ htmlInput: { readOnly: true } }} sx={{ mt: 1 }} />
            <Stack direction="row" spacing={1} sx={{ mt: 1, flexWrap: 'wrap' }}>
              {data.published && (
                <Button href={data.url} target="_blank" rel="noopener noreferrer">
                  {t('showroom.open')}
                </Button>
              )}
              <Button component={RouterLink} to="/downloadPoster">
                {t('showroom.poster.link')}
              </Button>
            </Stack>
          </Box>
          {qr && (
            <Box role="img" aria-label={t('showroom.qr')} sx={{ width: 140, height: 140, '& svg': { width: '100%', height: '100%' } }} dangerouslySetInnerHTML={{ __html: qr }} />
          )}
        </Stack>
        <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
          {t('showroom.source')}
        </Typography>
      </Paper>
      <Typography variant="h6" component="h2">
        {t('showroom.preview')}
      </Typography>
      {empty ? <Alert severity="info">{t('showroom.empty')}</Alert> : <ShowroomView showroom={data.showroom} imageUrl={(file) => images[file.id] ?? null} />}
    </Stack>
  );
}
