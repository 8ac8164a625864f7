import { lazy, Suspense, useCallback, useEffect, useRef, useState } from 'react';
import { Alert, Box, Button, Chip, FormControlLabel, IconButton, List, ListItem, ListItemText, Paper, Stack, Switch, TextField, Typography } from '@mui/material';
import DeleteOutlined from '@mui/icons-material/DeleteOutlined';
import EditNote from '@mui/icons-material/EditNote';
import PhotoCamera from '@mui/icons-material/PhotoCamera';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router-dom';
import { typedApi } from '../../../lib/api';
import { useApi } from '../../../lib/use-api';
import { useUserInfo } from '../../../lib/session';
import { QualificationSheet, type SheetQualification } from '../components/QualificationSheet';
import { ScanStoreError, type StoredScan } from '../scanner/scan-queue';
import { signalScan } from '../scanner/feedback';
import { useScanQueue } from '../scanner/useScanQueue';

// LD1 at the booth: the scanner. A badge read by the camera or typed is written to this phone
// first and sent when the network allows (see scan-queue.ts); the list shows each scan's state.
// Built for a phone held in one hand: one column, large targets, nothing wider than the screen.

const CameraScanner = lazy(() => import('../scanner/CameraScanner'));

const QUICK_SCAN_KEY = 'leadgrab.quickScan';
const OPTIONS_KEY = '/leads/options';

function defaultDeviceName(userName: string): string {
  const agent = navigator.userAgent;
  const kind = /iPhone/.test(agent) ? 'iPhone' : /iPad/.test(agent) ? 'iPad' : /Android/.test(agent) ? 'Android' : 'Browser';
  return `${kind} · ${userName}`.slice(0, 60);
}

function stateText(scan: StoredScan, t: (key: string, params?: Record<string, unknown>) => string): string {
  if (scan.outcome === 'refused') return t('leads.scanner.state.refused', { reason: t(`leads.scanner.problem.${scan.problem ?? 'invalid'}`) });
  return t(`leads.scanner.state.${scan.outcome}`);
}

/** Where a scan's photo stands: kept on the phone, attached to the lead, or refused with the reason. */
function photoText(scan: StoredScan, t: (key: string, params?: Record<string, unknown>) => string): string | null {
  const photo = scan.photo;
  if (!photo) return null;
  if (photo.state === 'attached') return t('leads.scanner.photoAttached');
  if (photo.state === 'waiting') return t('leads.scanner.photoWaiting');
  return t('leads.scanner.photoRefused', { reason: photo.problem ? t(photo.problem, photo.params) : (photo.message ?? '') });
}

export default function ScannerPage() {
  const { t } = useTranslation();
  const { data: user } = useUserInfo();
  const [quick, setQuick] = useState(() => localStorage.getItem(QUICK_SCAN_KEY) === '1');
  const [code, setCode] = useState('');
  const [codeError, setCodeError] = useState('');
  const [storeError, setStoreError] = useState<'storageFull' | 'storageUnavailable' | null>(null);
  const [notPersisted, setNotPersisted] = useState(false);
  const [lastScan, setLastScan] = useState<StoredScan | null>(null);
  const [sheetFor, setSheetFor] = useState<StoredScan | null>(null);
  const [registering, setRegistering] = useState(false);
  const [registerFailed, setRegisterFailed] = useState(false);
  const [deviceName, setDeviceName] = useState('');

  const onAnswered = useCallback((scan: StoredScan) => {
    // Only what was just read is signalled, not a queue that syncs after hours offline.
    if (Date.now() - Date.parse(scan.readAt) > 30_000) return;
    signalScan(scan.outcome === 'sent' ? 'created' : scan.outcome === 'duplicate' ? 'duplicate' : scan.outcome === 'quota' ? 'quota' : 'invalid');
  }, []);
  const view = useScanQueue(user?.id, onAnswered);
  const { queue, device, signedOut } = view;

  // The tags for the sheet, kept on the phone for offline use.
  const { data: options } = useApi('GET', OPTIONS_KEY, { silent: true });
  const [offlineTags, setOfflineTags] = useState<Array<{ id: number; name: string; choices: string[] }>>([]);
  useEffect(() => {
    if (!queue) return;
    if (options) void queue.db.put('meta', options.tags, 'tags');
    else void queue.db.get('meta', 'tags').then((tags) => Array.isArray(tags) && setOfflineTags(tags));
  }, [queue, options]);
  const tags = options?.tags ?? offlineTags;

  // Ask the browser to keep the queue when space runs low; say so when it will not.
  useEffect(() => {
    const storage = navigator.storage;
    if (!storage?.persist) return;
    void storage
      .persisted()
      .then((already) => already || storage.persist())
      .then((granted) => setNotPersisted(!granted))
      .catch(() => undefined);
  }, []);

  const register = useCallback(
    async (name: string) => {
      if (!queue || !user) return;
      setRegistering(true);
      setRegisterFailed(false);
      try {
        const answer = await typedApi.post('/leads/devices', { body: { name }, silent: true, skipDuplicateCheck: true });
        await queue.setDevice({ id: answer.id, name: answer.name, token: answer.token, userId: user.id });
      } catch {
        setRegisterFailed(true);
      } finally {
        setRegistering(false);
      }
    },
    [queue, user],
  );

  // A phone that was never registered (or whose registration belongs to someone else) is
  // registered at once; a phone whose device was revoked waits for the user to ask.
  const autoRegistered = useRef(false);
  useEffect(() => {
    if (!view.loaded || !queue || !user || signedOut || autoRegistered.current) return;
    if (device && device.userId === user.id) return;
    autoRegistered.current = true;
    void register(defaultDeviceName(user.name));
  }, [view.loaded, queue, user, device, signedOut, register]);

  // Not registered because the network was down: tried again when it is back.
  useEffect(() => {
    const retry = () => {
      if (registerFailed && !signedOut && user) void register(defaultDeviceName(user.name));
    };
    window.addEventListener('online', retry);
    return () => window.removeEventListener('online', retry);
  }, [registerFailed, signedOut, user, register]);

  const scanningStopped = signedOut || view.status.kind === 'forbidden';

  const record = useCallback(
    async (badgeCode: string, typed = false) => {
      if (!queue) return;
      try {
        const scan = await queue.add(badgeCode, undefined, typed);
        setStoreError(null);
        setLastScan(scan);
        signalScan(scan.outcome === 'refused' ? 'invalid' : 'queued');
      } catch (error) {
        setStoreError(error instanceof ScanStoreError ? error.reason : 'storageUnavailable');
        signalScan('invalid');
      }
    },
    [queue],
  );

  const onCode = useCallback(
    (read: string) => {
      if (!scanningStopped) void record(read);
    },
    [record, scanningStopped],
  );

  const submitManual = () => {
    const trimmed = code.trim();
    if (!trimmed) {
      setCodeError(t('leads.scanner.badgeRequired'));
      return;
    }
    setCode('');
    void record(trimmed, true);
  };

  /** The photo is kept on the phone with its scan first; the queue sends it once the scan is a lead. */
  const keepPhoto = async (scan: StoredScan, file: File) => {
    if (!queue) return;
    try {
      await queue.addPhoto(scan.clientScanId, file.name || 'photo.jpg', await file.arrayBuffer());
      setStoreError(null);
    } catch (error) {
      setStoreError(error instanceof ScanStoreError ? error.reason : 'storageUnavailable');
    }
  };

  const saveQualification = (scan: StoredScan, qualification: SheetQualification) => {
    if (!queue) return;
    void queue.qualify(scan.clientScanId, qualification);
    setSheetFor(null);
  };

  const statusLine = () => {
    const status = view.status;
    if (status.kind === 'retrying') return t('leads.scanner.status.retrying', { count: view.waiting, seconds: Math.max(1, Math.round(status.inMs / 1000)) });
    if (status.kind === 'sending') return t('leads.scanner.status.sending', { count: view.waiting });
    if (view.waiting > 0) return t('leads.scanner.status.waiting', { count: view.waiting });
    return t('leads.scanner.status.allSent');
  };

  const skewHours = Math.round(Math.abs(view.clockSkewMs) / 3_600_000);
  const lastShown = lastScan ? (view.recent.find((scan) => scan.clientScanId === lastScan.clientScanId) ?? lastScan) : null;

  return (
    <Stack spacing={1.5} sx={{ maxWidth: 560, mx: 'auto', width: '100%', minWidth: 0 }}>
      {view.unavailable && <Alert severity="error">{t('leads.scanner.storageUnavailable')}</Alert>}
      {signedOut && (
        <Alert severity="error" role="alert">
          <Typography variant="body2" sx={{ mb: 1 }}>
            {t('leads.scanner.signedOut', { count: view.waiting })}
          </Typography>
          <Box
            component="form"
            noValidate
            sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', alignItems: 'flex-start' }}
            onSubmit={(event) => {
              event.preventDefault();
              void register(deviceName.trim() || defaultDeviceName(user?.name ?? ''));
            }}
          >
            <TextField
              size="small"
              label={t('leads.devices.name')}
              value={deviceName}
              onChange={(event) => setDeviceName(event.target.value)}
              placeholder={defaultDeviceName(user?.name ?? '')}
              slotProps={{ htmlInput: { maxLength: 60 } }}
              sx={{ flex: '1 1 180px' }}
            />
            <Button type="submit" variant="contained" disabled={registering}>
              {t('leads.scanner.registerAgain')}
            </Button>
          </Box>
        </Alert>
      )}
      {view.status.kind === 'forbidden' && <Alert severity="error">{t('leads.scanner.forbidden', { count: view.waiting })}</Alert>}
      {registerFailed && !signedOut && <Alert severity="warning">{t('leads.scanner.registerFailed')}</Alert>}
      {storeError && (
        <Alert severity="error" role="alert">
          {t(`leads.scanner.${storeError}`)}
        </Alert>
      )}
      {skewHours >= 1 && <Alert severity="warning">{t('leads.scanner.clockOff', { hours: skewHours })}</Alert>}
      {notPersisted && <Alert severity="info">{t('leads.scanner.notPersisted')}</Alert>}
      {view.othersWaiting > 0 && <Alert severity="info">{t('leads.scanner.othersWaiting', { count: view.othersWaiting })}</Alert>}

      {!scanningStopped && (
        <Suspense fallback={null}>
          <CameraScanner onCode={onCode} />
        </Suspense>
      )}

      <Paper variant="outlined" sx={{ p: 1.5 }}>
        <Box
          component="form"
          noValidate
          aria-label={t('leads.scanner.manualEntry')}
          sx={{ display: 'flex', gap: 1, alignItems: 'flex-start' }}
          onSubmit={(event) => {
            event.preventDefault();
            submitManual();
          }}
        >
          <TextField
            size="small"
            fullWidth
            label={t('leads.scanner.badgeCode')}
            value={code}
            disabled={scanningStopped}
            onChange={(event) => {
              setCode(event.target.value);
              setCodeError('');
            }}
            error={Boolean(codeError)}
            helperText={codeError || undefined}
            slotProps={{ htmlInput: { autoCapitalize: 'characters', autoCorrect: 'off', spellCheck: false, enterKeyHint: 'send' } }}
          />
          <Button type="submit" variant="contained" disabled={scanningStopped} sx={{ minHeight: 40, flexShrink: 0 }}>
            {t('leads.scanner.add')}
          </Button>
        </Box>
        <FormControlLabel
          sx={{ mt: 0.5 }}
          control={
            <Switch
              checked={quick}
              onChange={(event) => {
                setQuick(event.target.checked);
                localStorage.setItem(QUICK_SCAN_KEY, event.target.checked ? '1' : '0');
              }}
            />
          }
          label={t('leads.scanner.quickScan')}
        />
      </Paper>

      {lastShown && !quick && lastShown.outcome !== 'refused' && (
        <Paper variant="outlined" sx={{ p: 1.5, display: 'flex', gap: 1, alignItems: 'center' }}>
          <Typography variant="body2" sx={{ flex: 1, minWidth: 0, overflowWrap: 'anywhere' }}>
            {t('leads.scanner.scanned', { code: lastShown.visitorName || lastShown.badgeCode })}
          </Typography>
          <Button variant="outlined" startIcon={<EditNote />} onClick={() => setSheetFor(lastShown)}>
            {t('leads.scanner.qualify')}
          </Button>
        </Paper>
      )}

      <Stack direction="row" spacing={1} sx={{ flexWrap: 'wrap', rowGap: 1 }}>
        <Chip label={t('leads.scanner.today', { count: view.today })} />
        {view.quota && view.quota.remaining !== null && (
          <Chip color={view.quota.remaining > 0 ? 'default' : 'warning'} label={t('leads.scanner.quotaLeft', { count: view.quota.remaining })} />
        )}
      </Stack>
      {view.recent.some((scan) => scan.outcome === 'quota') && (
        <Box>
          <Button size="small" variant="outlined" onClick={() => void queue?.retryQuota()}>
            {t('leads.scanner.retryQuota')}
          </Button>
        </Box>
      )}
      <Typography variant="body2" color="text.secondary" role="status">
        {statusLine()}
      </Typography>
      {device && (
        <Typography variant="caption" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
          {t('leads.scanner.device', { name: device.name })}
        </Typography>
      )}

      <Box component="section" aria-labelledby="recent-scans-title">
        <Typography id="recent-scans-title" variant="h6" component="h2">
          {t('leads.scanner.recent')}
        </Typography>
        {view.loaded && view.recent.length === 0 && (
          <Typography variant="body2" color="text.secondary">
            {t('leads.scanner.none')}
          </Typography>
        )}
        <List dense aria-label={t('leads.scanner.recent')}>
          {view.recent.map((scan) => {
            const who = [scan.visitorName, scan.company].filter(Boolean).join(' · ');
            return (
              <ListItem
                key={scan.clientScanId}
                divider
                disableGutters
                secondaryAction={
                  scan.outcome !== 'refused' && scan.outcome !== 'quota' ? (
                    <Stack direction="row">
                      {scan.photo?.state === 'refused' ? (
                        <IconButton aria-label={t('leads.scanner.photoRemove', { code: scan.badgeCode })} onClick={() => void view.queue?.removePhoto(scan.clientScanId)}>
                          <DeleteOutlined />
                        </IconButton>
                      ) : (
                        <IconButton component="label" aria-label={t('leads.scanner.photoNamed', { code: scan.badgeCode })}>
                          <PhotoCamera />
                          {/* A phone opens its rear camera; a computer offers a file. */}
                          <input
                            hidden
                            type="file"
                            accept="image/*"
                            capture="environment"
                            aria-label={t('leads.scanner.photoNamed', { code: scan.badgeCode })}
                            onChange={(event) => {
                              const file = event.target.files?.[0];
                              event.target.value = '';
                              if (file) void keepPhoto(scan, file);
                            }}
                          />
                        </IconButton>
                      )}
                      <IconButton edge="end" aria-label={t('leads.scanner.qualifyNamed', { code: scan.badgeCode })} onClick={() => setSheetFor(scan)}>
                        <EditNote />
                      </IconButton>
                    </Stack>
                  ) : undefined
                }
              >
                <ListItemText
                  sx={{ minWidth: 0, pr: 10 }}
                  primary={
                    <Box component="span" sx={{ overflowWrap: 'anywhere' }}>
                      {scan.leadId && scan.outcome !== 'waiting' ? <RouterLink to={`/lead/lead-detail?id=${scan.leadId}`}>{scan.badgeCode}</RouterLink> : scan.badgeCode}
                      {who && ` — ${who}`}
                    </Box>
                  }
                  secondary={
                    <>
                      {stateText(scan, t)}
                      {scan.badgeKnown === false && ` · ${t('leads.scanner.unknownBadge')}`}
                      {scan.problem === 'qualification' && ` · ${t('leads.scanner.qualificationRefused')}`}
                      {scan.photo && ` · ${photoText(scan, t)}`}
                    </>
                  }
                />
              </ListItem>
            );
          })}
        </List>
      </Box>

      {sheetFor && (
        <QualificationSheet
          open
          title={t('leads.scanner.sheetTitle', { code: sheetFor.visitorName || sheetFor.badgeCode })}
          initial={sheetFor.qualification ?? {}}
          tags={tags}
          onSave={(qualification) => saveQualification(sheetFor, qualification)}
          onClose={() => setSheetFor(null)}
        />
      )}
    </Stack>
  );
}
