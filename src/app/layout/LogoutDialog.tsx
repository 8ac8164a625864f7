import { useEffect, useState } from 'react';
import { Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { LOGOUT_REDIRECT_DELAY_MS } from '../../engine/constants';
import { typedApi } from '../../lib/api';
import { clearUserInfo, useUserInfo } from '../../lib/session';
import { tokenStore } from '../../lib/storage';
import { showToast } from '../../lib/toast';

/** The scanner's sign-out part, loaded when the dialog opens (pages without the scanner do not carry it). */
const scannerSignOut = () => import('../../features/leads/scanner/sign-out');

/**
 * S6: confirm, revoke on the server, clear the browser, say so, then /login after 1 s.
 * LD1: a phone that scanned says how many of the user's scans are not sent yet and offers to
 * send them first; signing out removes the user's scans and scanning device from the phone.
 */
export function LogoutDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { data: user } = useUserInfo();
  const userId = user?.id;
  const [busy, setBusy] = useState(false);
  const [unsent, setUnsent] = useState(0);
  const [sending, setSending] = useState(false);

  useEffect(() => {
    if (!open || userId === undefined) return;
    let cancelled = false;
    void scannerSignOut()
      .then((scanner) => scanner.unsentScans(userId))
      .then((count) => !cancelled && setUnsent(count))
      .catch(() => undefined);
    return () => {
      cancelled = true;
      setSending(false);
    };
  }, [open, userId]);

  useEffect(() => {
    if (!sending || userId === undefined) return;
    let stop = () => {};
    let cancelled = false;
    void scannerSignOut()
      .then((scanner) => scanner.sendUnsent(userId, (count) => !cancelled && setUnsent(count)))
      .then((unsubscribe) => {
        if (cancelled) unsubscribe();
        else stop = unsubscribe;
      })
      .catch(() => undefined);
    return () => {
      cancelled = true;
      stop();
    };
  }, [sending, userId]);

  const confirm = async () => {
    setBusy(true);
    if (userId !== undefined) {
      try {
        const deviceId = await (await scannerSignOut()).forgetScans(userId);
        // The phone's scanning token ends with the session (best effort: offline it simply stays unused).
        if (deviceId !== null) await typedApi.del('/leads/devices/{id}', { path: { id: deviceId }, silent: true }).catch(() => undefined);
      } catch {
        // Storage unreadable: nothing of the scanner to clear.
      }
    }
    try {
      await typedApi.post('/auth/logout', { silent: true, skipDuplicateCheck: true });
    } catch {
      // The browser forgets the session even when the server cannot be reached.
    }
    tokenStore.clear();
    showToast('success', t('success.loggedOut'));
    onClose();
    // The cached user info is dropped only when leaving: dropping it now re-renders the session
    // guard, which (seeing no token) would go to /login at once instead of after the delay.
    window.setTimeout(() => {
      navigate('/login', { replace: true });
      void clearUserInfo();
    }, LOGOUT_REDIRECT_DELAY_MS);
  };
  return (
    <Dialog open={open} onClose={busy ? undefined : onClose} aria-labelledby="logout-title">
      <DialogTitle id="logout-title">{t('auth.logoutConfirmTitle')}</DialogTitle>
      <DialogContent>
        <DialogContentText role={unsent > 0 ? 'alert' : undefined}>
          {unsent > 0 ? t(sending ? 'auth.logoutSending' : 'auth.logoutUnsentScans', { count: unsent }) : t('auth.logoutConfirmText')}
        </DialogContentText>
      </DialogContent>
      <DialogActions sx={{ flexWrap: 'wrap', gap: 1 }}>
        <Button onClick={onClose} disabled={busy}>
          {t('auth.cancel')}
        </Button>
        {unsent > 0 && (
          <Button onClick={() => setSending(true)} disabled={busy || sending} variant="contained" autoFocus>
            {t('auth.logoutSendFirst')}
          </Button>
        )}
        {unsent > 0 ? (
          <Button onClick={confirm} disabled={busy} color="error">
            {t('auth.logoutAnyway')}
          </Button>
        ) : (
          <Button onClick={confirm} disabled={busy} variant="contained" autoFocus>
            {t('auth.confirm')}
          </Button>
        )}
      </DialogActions>
    </Dialog>
  );
}
