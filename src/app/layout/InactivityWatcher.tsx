import { useEffect, useRef, useState } from 'react';
import { Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { inactivityPhase, type InactivityPhase } from '../../engine/session-rules';
import { endSession, lastServerContactAt, typedApi } from '../../lib/api';
import { activityStore } from '../../lib/storage';

const ACTIVITY_EVENTS = ['pointerdown', 'keydown', 'wheel', 'touchstart', 'mousemove'] as const;
/** Activity is written to storage at most this often (it is shared with other tabs). */
const ACTIVITY_WRITE_MS = 1000;

/**
 * S5: ends the session after the configured idle time, warning before with a way to stay
 * signed in. Activity in any tab counts (shared through local storage), and while the user is
 * active the server is told now and then so its own idle timer does not run out first.
 */
export function InactivityWatcher({ idleSeconds, warningSeconds }: { idleSeconds: number; warningSeconds: number }) {
  const { t } = useTranslation();
  const [phase, setPhase] = useState<InactivityPhase>('active');
  const [secondsLeft, setSecondsLeft] = useState(0);
  const phaseRef = useRef(phase);
  phaseRef.current = phase;

  useEffect(() => {
    activityStore.set(Date.now());
    let lastWrite = 0;
    const onActivity = () => {
      // While the warning shows, only the button keeps the session: a stray mouse move must not.
      if (phaseRef.current !== 'active') return;
      const now = Date.now();
      if (now - lastWrite < ACTIVITY_WRITE_MS) return;
      lastWrite = now;
      activityStore.set(now);
      const touchEveryMs = Math.min(60_000, (idleSeconds * 1000) / 4);
      if (now - lastServerContactAt() > touchEveryMs) void typedApi.post('/auth/keepalive', { silent: true, skipDuplicateCheck: true }).catch(() => undefined);
    };
    for (const name of ACTIVITY_EVENTS) window.addEventListener(name, onActivity, { passive: true });
    const timer = window.setInterval(() => {
      const now = Date.now();
      const last = activityStore.get() || now;
      const next = inactivityPhase(last, now, idleSeconds, warningSeconds);
      setSecondsLeft(Math.max(0, Math.ceil((last + idleSeconds * 1000 - now) / 1000)));
      setPhase(next);
      if (next === 'ended') {
        window.clearInterval(timer);
        void typedApi
          .post('/auth/logout', { silent: true, skipDuplicateCheck: true })
          .catch(() => undefined)
          .finally(() => endSession('sessionInactive'));
      }
    }, 1000);
    return () => {
      window.clearInterval(timer);
      for (const name of ACTIVITY_EVENTS) window.removeEventListener(name, onActivity);
    };
  }, [idleSeconds, warningSeconds]);

  const staySignedIn = async () => {
    activityStore.set(Date.now());
    setPhase('active');
    await typedApi.post('/auth/keepalive', { skipDuplicateCheck: true }).catch(() => undefined);
  };

  return (
    <Dialog open={phase === 'warning'} aria-labelledby="inactivity-title">
      <DialogTitle id="inactivity-title">{t('auth.inactivityTitle')}</DialogTitle>
      <DialogContent>
        <DialogContentText>{t('auth.inactivityText', { seconds: secondsLeft })}</DialogContentText>
      </DialogContent>
      <DialogActions>
        <Button
          onClick={() =>
            void typedApi
              .post('/auth/logout', { silent: true, skipDuplicateCheck: true })
              .catch(() => undefined)
              .finally(() => endSession('loggedOut'))
          }
        >
          {t('auth.logOutNow')}
        </Button>
        <Button variant="contained" onClick={staySignedIn} autoFocus>
          {t('auth.staySignedIn')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
