import type { ReactNode } from 'react';
import './plain.css';

/** The card public pages sit in; `top` holds a logo and the language choice. */
export function PublicCard({ top, children, labelledBy }: { top?: ReactNode; children: ReactNode; labelledBy?: string }) {
  return (
    <section className="plain-card" aria-labelledby={labelledBy}>
      {top && <div className="plain-card-top">{top}</div>}
      {children}
    </section>
  );
}

export function Notice({ kind, children }: { kind: 'error' | 'warning' | 'success' | 'info'; children: ReactNode }) {
  return (
    <div className={`plain-notice plain-notice-${kind}`} role={kind === 'error' || kind === 'warning' ? 'alert' : 'status'}>
      {children}
    </div>
  );
}

export function Spinner({ label }: { label: string }) {
  return <div className="plain-spinner" role="progressbar" aria-label={label} />;
}
