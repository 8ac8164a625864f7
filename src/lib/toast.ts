import { TOAST_DURATION_MS } from '../engine/constants';

// Toast messages as a tiny publish/subscribe store, so code outside React (the API client)
// can raise them and one <Toaster/> shows them.

export type ToastKind = 'error' | 'warning' | 'success' | 'info';

export interface Toast {
  id: number;
  kind: ToastKind;
  message: string;
  html: boolean;
  durationMs: number;
}

type Listener = (toasts: Toast[]) => void;

let toasts: Toast[] = [];
let nextId = 1;
const listeners = new Set<Listener>();

function emit() {
  for (const listener of listeners) listener(toasts);
}

export function showToast(kind: ToastKind, message: string, options: { durationMs?: number; html?: boolean } = {}): number {
  const toast: Toast = { id: nextId++, kind, message, html: options.html ?? false, durationMs: options.durationMs ?? TOAST_DURATION_MS };
  toasts = [...toasts, toast];
  emit();
  return toast.id;
}

export function dismissToast(id: number) {
  toasts = toasts.filter((t) => t.id !== id);
  emit();
}

export function subscribeToasts(listener: Listener): () => void {
  listeners.add(listener);
  listener(toasts);
  return () => listeners.delete(listener);
}
