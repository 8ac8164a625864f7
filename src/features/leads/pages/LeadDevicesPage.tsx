import { useEffect, useState } from 'react';
import QRCode from 'qrcode';
import { Alert, Box, Button, Card, CardContent, Stack, TextField, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { typedApi } from '../../../lib/api';
import { useApi } from '../../../lib/use-api';
import type { ApiData, ApiPath } from '../../../lib/typed-api';
import { showToast } from '../../../lib/toast';
import { UtcTime } from '../../../components/UtcTime';
import { ResponsiveTable, type ResponsiveColumn } from '../../../components/ResponsiveTable';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { ShownOnceSecret } from '../../../components/ShownOnceSecret';
import { useAccountInfo } from '../../../lib/session';

// LD1: the scanning devices signed in with a long-lived device token. A user adds a device here
// (or the app does it after one sign-in) and types or pastes the token into the app once; the
// exhibitor sees every device of its people and revokes a lost one.

type Device = ApiData<'GET', '/leads/devices'>[number];

const DEVICES_KEY = '/leads/devices' satisfies ApiPath<'GET'>;
const NAME_MAX = 60;

/** The portal's own scanner, which a phone opens signed in from the QR code. */
const SCANNER_PATH = '/digital-tools/scanner';

/**
 * LD1 S3: a QR code a phone reads to open the scanner signed in as this user. It carries a
 * short-lived, single-use sign-in link code (never a long-lived token) and is made anew when
 * the code expires, for as long as it is shown.
 */
function PhoneSignInCard({ offsetMinutes }: { offsetMinutes: number }) {
  const { t } = useTranslation();
  const [shown, setShown] = useState(false);
  const [round, setRound] = useState(0);
  const [qr, setQr] = useState<{ svg: string; expiresAt: string } | null>(null);
  useEffect(() => {
    if (!shown) return;
    let cancelled = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    void (async () => {
      try {
        const answer = await typedApi.post('/auth/link-codes', { skipDuplicateCheck: true });
        const url = new URL(answer.link);
        url.pathname = SCANNER_PATH;
        const svg = await QRCode.toString(url.toString(), { type: 'svg', margin: 2, errorCorrectionLevel: 'M' });
        if (cancelled) return;
        setQr({ svg, expiresAt: answer.expiresAt });
        timer = setTimeout(() => setRound((value) => value + 1), Math.max(1000, new Date(answer.expiresAt).getTime() - Date.now()));
      } catch {
        // The API client has shown the reason.
      }
    })();
    return () => {
      cancelled = true;
      clearTimeout(timer);
    };
  }, [shown, round]);

  return (
    <Card variant="outlined">
      <CardContent>
        <Typography variant="h6" component="h2" sx={{ mb: 1 }}>
          {t('leads.devices.phoneTitle')}
        </Typography>
        <Typography sx={{ mb: 2 }}>{t('leads.devices.phoneIntro')}</Typography>
        {!shown && (
          <Button variant="outlined" onClick={() => setShown(true)}>
            {t('leads.devices.phoneShow')}
          </Button>
        )}
        {shown && qr && (
          <Stack spacing={1} sx={{ alignItems: 'flex-start' }}>
            <Box
              role="img"
              aria-label={t('leads.devices.phoneQr')}
              sx={{ width: 200, height: 200, '& svg': { width: '100%', height: '100%' } }}
              dangerouslySetInnerHTML={{ __html: qr.svg }}
            />
            <Typography variant="body2" color="text.secondary">
              {t('leads.devices.phoneExpires')} <UtcTime value={qr.expiresAt} offsetMinutes={offsetMinutes} />
            </Typography>
          </Stack>
        )}
      </CardContent>
    </Card>
  );
}

export default function LeadDevicesPage() {
  const { t } = useTranslation();
  const { data: devices, error, mutate } = useApi('GET', DEVICES_KEY);
  const [name, setName] = useState('');
  const [nameError, setNameError] = useState('');
  const [busy, setBusy] = useState(false);
  const [created, setCreated] = useState<{ name: string; token: string } | null>(null);
  const [revoking, setRevoking] = useState<Device | null>(null);
  const { data: account } = useAccountInfo();

  // K2: times are the event's, as everywhere else in the portal (not the browser's zone).
  const offsetMinutes = account?.utcOffsetMinutes ?? 0;
  const deviceColumns: ResponsiveColumn<Device>[] = [
    { key: 'name', label: t('leads.devices.name'), primary: true, cell: (device) => device.name },
    { key: 'user', label: t('leads.devices.user'), cell: (device) => device.user.name },
    { key: 'createdAt', label: t('leads.devices.createdAt'), cell: (device) => <UtcTime value={device.createdAt} offsetMinutes={offsetMinutes} /> },
    { key: 'lastUsedAt', label: t('leads.devices.lastUsedAt'), cell: (device) => <UtcTime value={device.lastUsedAt} offsetMinutes={offsetMinutes} /> },
    {
      key: 'revoke',
      label: t('leads.devices.revoke'),
      header: '',
      actions: true,
      cell: (device) => (
        <Button size="small" color="error" aria-label={t('leads.devices.revokeNamed', { name: device.name })} onClick={() => setRevoking(device)}>
          {t('leads.devices.revoke')}
        </Button>
      ),
    },
  ];

  const add = async () => {
    const trimmed = name.trim();
    if (!trimmed) {
      setNameError(t('leads.devices.nameRequired'));
      return;
    }
    setBusy(true);
    try {
      const answer = await typedApi.post(DEVICES_KEY, { body: { name: trimmed }, skipDuplicateCheck: true });
      setCreated({ name: answer.name, token: answer.token });
      setName('');
      await mutate();
    } catch {
      // The API client has shown the reason.
    } finally {
      setBusy(false);
    }
  };

  const revoke = async (device: Device) => {
    try {
      await typedApi.del('/leads/devices/{id}', { path: { id: device.id } });
      showToast('success', t('leads.devices.revoked', { name: device.name }));
      await mutate();
    } catch {
      // The API client has shown the reason.
    } finally {
      setRevoking(null);
    }
  };

  return (
    <Stack spacing={2}>
      <Card variant="outlined">
        <CardContent>
          <Typography sx={{ mb: 2 }}>{t('leads.devices.intro')}</Typography>
          <Box
            component="form"
            noValidate
            aria-label={t('leads.devices.add')}
            sx={{ display: 'flex', gap: 1, alignItems: 'flex-start', flexWrap: 'wrap' }}
            onSubmit={(event) => {
              event.preventDefault();
              void add();
            }}
          >
            <TextField
              size="small"
              required
              label={t('leads.devices.name')}
              value={name}
              onChange={(event) => {
                setName(event.target.value);
                setNameError('');
              }}
              error={Boolean(nameError)}
              helperText={nameError || t('leads.devices.nameHint')}
              slotProps={{ htmlInput: { maxLength: NAME_MAX } }}
              sx={{ minWidth: 260 }}
            />
            <Button type="submit" variant="contained" disabled={busy}>
              {t('leads.devices.add')}
            </Button>
          </Box>
        </CardContent>
      </Card>
      <PhoneSignInCard offsetMinutes={offsetMinutes} />
      {created && (
        <ShownOnceSecret
          message={t('leads.devices.tokenOnce', { name: created.name })}
          label={t('leads.devices.token')}
          value={created.token}
          copyLabel={t('leads.devices.copy')}
          copiedMessage={t('leads.devices.copied')}
          onClose={() => setCreated(null)}
        />
      )}
      <Card variant="outlined">
        <CardContent>
          <Typography variant="h6" component="h2" sx={{ mb: 1 }}>
            {t('leads.devices.list')}
          </Typography>
          {error && <Alert severity="error">{error.message}</Alert>}
          {devices && devices.length === 0 && <Typography color="text.secondary">{t('leads.devices.none')}</Typography>}
          {devices && devices.length > 0 && (
            <ResponsiveTable label={t('leads.devices.list')} size="small" outlined={false} columns={deviceColumns} rows={devices} rowKey={(device) => device.id} />
          )}
        </CardContent>
      </Card>
      <ConfirmDialog
        open={revoking !== null}
        title={t('leads.devices.revokeTitle')}
        text={t('leads.devices.revokeText', { name: revoking?.name ?? '' })}
        cancelLabel={t('leads.devices.cancel')}
        confirmLabel={t('leads.devices.revoke')}
        onCancel={() => setRevoking(null)}
        onConfirm={() => revoking && void revoke(revoking)}
      />
    </Stack>
  );
}
