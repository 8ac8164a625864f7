import { useEffect, useState } from 'react';
import { Alert, Snackbar, Stack } from '@mui/material';
import { dismissToast, subscribeToasts, type Toast } from '../lib/toast';
import { sanitizeHtml } from '../lib/sanitize-html';

function ToastItem({ toast }: { toast: Toast }) {
  useEffect(() => {
    const timer = window.setTimeout(() => dismissToast(toast.id), toast.durationMs);
    return () => window.clearTimeout(timer);
  }, [toast.id, toast.durationMs]);
  return (
    <Alert severity={toast.kind} variant="filled" onClose={() => dismissToast(toast.id)} role={toast.kind === 'error' ? 'alert' : 'status'}>
      {toast.html ? <span dangerouslySetInnerHTML={{ __html: sanitizeHtml(toast.message) }} /> : toast.message}
    </Alert>
  );
}

/** Shows the toasts raised anywhere in the app (API errors, success messages). */
export function Toaster() {
  const [toasts, setToasts] = useState<Toast[]>([]);
  useEffect(() => subscribeToasts(setToasts), []);
  return (
    <Snackbar open={toasts.length > 0} anchorOrigin={{ vertical: 'top', horizontal: 'center' }}>
      <Stack spacing={1}>
        {toasts.map((toast) => (
          <ToastItem key={toast.id} toast={toast} />
        ))}
      </Stack>
    </Snackbar>
  );
}
