import { Button, Paper, Stack, ToggleButton, ToggleButtonGroup, Typography } from '@mui/material';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { typedApi } from '../../../lib/api';
import { useAccountInfo } from '../../../lib/session';

/** CT5: the printable poster (A4 or A3) in the current language, with the booth and a QR code to the showroom. */
export default function DownloadPosterPage() {
  const { t, i18n } = useTranslation();
  const { data: account } = useAccountInfo();
  const [size, setSize] = useState<'A4' | 'A3'>('A4');
  const [busy, setBusy] = useState(false);
  const download = async () => {
    setBusy(true);
    try {
      await typedApi.download('/showroom/poster', `poster-${account?.exhibitCode ?? ''}-${size}.pdf`, { query: { size } });
    } finally {
      setBusy(false);
    }
  };
  return (
    <Paper variant="outlined" sx={{ p: 2 }}>
      <Typography sx={{ mb: 2 }}>{t('showroom.poster.intro', { booth: account?.boothNum ?? '', language: i18n.language })}</Typography>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: { sm: 'center' } }}>
        <ToggleButtonGroup exclusive value={size} onChange={(_, value) => value && setSize(value)} aria-label={t('showroom.poster.size')}>
          <ToggleButton value="A4">A4</ToggleButton>
          <ToggleButton value="A3">A3</ToggleButton>
        </ToggleButtonGroup>
        <Button variant="contained" disabled={busy} onClick={() => void download()}>
          {t('showroom.poster.download', { size })}
        </Button>
      </Stack>
    </Paper>
  );
}
