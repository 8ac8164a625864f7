import { useCallback, useState } from 'react';
import { Chip, List, ListItem, ListItemText, Stack } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { typedApi } from '../../../lib/api';
import type { ApiData } from '../../../lib/typed-api';
import CameraScanner from '../scanner/CameraScanner';
import { signalScan } from '../scanner/feedback';

// LD1: the scanner screen, minimal: the camera, each code read sent at once as a lead, and the
// recent scans with their answer. (The full screen — offline queue, device token, manual entry,
// qualification — replaces this page; the camera component stays as it is.)

type ScanResult = ApiData<'POST', '/leads/scans'>['results'][number];

interface RecentScan {
  clientScanId: string;
  badgeCode: string;
  result: ScanResult | null;
}

function newClientScanId(): string {
  return globalThis.crypto?.randomUUID?.() ?? `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
}

export default function ScannerPage() {
  const { t } = useTranslation();
  const [recent, setRecent] = useState<RecentScan[]>([]);

  const send = useCallback(async (badgeCode: string) => {
    const clientScanId = newClientScanId();
    setRecent((list) => [{ clientScanId, badgeCode, result: null }, ...list].slice(0, 20));
    try {
      const answer = await typedApi.post('/leads/scans', {
        body: { scans: [{ badgeCode, clientScanId, scannedAt: new Date().toISOString() }] },
        skipDuplicateCheck: true,
      });
      const result = answer.results[0] ?? null;
      if (result) {
        signalScan(result.status === 'created' ? 'created' : result.status === 'duplicate' ? 'duplicate' : result.status === 'quotaNotEnough' ? 'quota' : 'invalid');
      }
      setRecent((list) => list.map((scan) => (scan.clientScanId === clientScanId ? { ...scan, result } : scan)));
    } catch {
      // The API client has shown the reason; the scan stays "waiting".
      signalScan('queued');
    }
  }, []);

  const stateOf = (scan: RecentScan) => {
    if (!scan.result) return t('scannerCamera.page.waiting');
    if (scan.result.status === 'created') return t('scannerCamera.page.sent');
    if (scan.result.status === 'duplicate') return t(scan.result.reason === 'alreadyScanned' ? 'scannerCamera.page.alreadyLead' : 'scannerCamera.page.sent');
    if (scan.result.status === 'quotaNotEnough') return t('scannerCamera.page.quota');
    return t('scannerCamera.page.refused', { reason: scan.result.problem ?? '' });
  };

  return (
    <Stack spacing={2} sx={{ maxWidth: 520 }}>
      <CameraScanner onCode={(code) => void send(code)} />
      <List aria-label={t('scannerCamera.page.recentScans')} dense>
        {recent.map((scan) => (
          <ListItem key={scan.clientScanId} secondaryAction={<Chip size="small" label={stateOf(scan)} />}>
            <ListItemText primary={scan.badgeCode} secondary={[scan.result?.visitorName, scan.result?.company].filter(Boolean).join(' · ') || undefined} />
          </ListItem>
        ))}
      </List>
    </Stack>
  );
}
