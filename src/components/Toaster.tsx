import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { dismissToast, subscribeToasts, type Toast } from '../lib/toast';
import './plain/plain.css';

/** HTML from the server is shown only after it went through the sanitiser, loaded on demand. */
function HtmlMessage({ html }: { html: string }) {
  const [clean, setClean] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    void import('../lib/sanitize-html').then(({ sanitizeHtml }) => live && setClean(sanitizeHtml(html)));
    return () => {
      live = false;
    };
  }, [html]);
  return clean === null ? null : <span dangerouslySetInnerHTML={{ __html: clean }} />;
}

function ToastItem({ toast }: { toast: Toast }) {
  const { t } = useTranslation();
  useEffect(() => {
    const timer = window.setTimeout(() => dismissToast(toast.id), toast.durationMs);
    return () => window.clearTimeout(timer);
  }, [toast.id, toast.durationMs]);
  return (
    <div className={`plain-toast plain-toast-${toast.kind}`} role={toast.kind === 'error' || toast.kind === 'warning' ? 'alert' : 'status'}>
      <span className="plain-toast-text">{toast.html ? <HtmlMessage html={toast.message} /> : toast.message}</span>
      <button type="button" className="plain-toast-close" aria-label={t('layout.close')} onClick={() => dismissToast(toast.id)}>
        ×
      </button>
    </div>
  );
}

/** Shows the toasts raised anywhere in the app (API errors, success messages) for 5 s each. */
export function Toaster() {
  const [toasts, setToasts] = useState<Toast[]>([]);
  useEffect(() => subscribeToasts(setToasts), []);
  if (toasts.length === 0) return null;
  return (
    <div className="plain-toasts">
      {toasts.map((toast) => (
        <ToastItem key={toast.id} toast={toast} />
      ))}
    </div>
  );
}
