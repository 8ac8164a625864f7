import { useState } from 'react';
import { Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { LOGOUT_REDIRECT_DELAY_MS } from '../../engine/constants';
import { api } from '../../lib/api';
import { clearUserInfo } from '../../lib/session';
import { tokenStore } from '../../lib/storage';
import { showToast } from '../../lib/toast';

/** S6: confirm, revoke on the server, clear the browser, say so, then /login after 1 s. */
export function LogoutDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);
  const confirm = async () => {
    setBusy(true);
    try {
      await api.post('/auth/logout', undefined, { silent: true, skipDuplicateCheck: true });
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
        <DialogContentText>{t('auth.logoutConfirmText')}</DialogContentText>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={busy}>
          {t('auth.cancel')}
        </Button>
        <Button onClick={confirm} disabled={busy} variant="contained" autoFocus>
          {t('auth.confirm')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
