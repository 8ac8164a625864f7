import { useId } from 'react';
import { Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle } from '@mui/material';

export interface ConfirmDialogProps {
  open: boolean;
  title?: string;
  text: string;
  cancelLabel: string;
  confirmLabel: string;
  /** `error` for what cannot be undone (revoke, remove, delete). */
  tone?: 'error' | 'primary';
  onCancel: () => void;
  onConfirm: () => void;
}

/** Asks before an action that cannot be undone; the dialog is named by its title (or its text when it has none). */
export function ConfirmDialog({ open, title, text, cancelLabel, confirmLabel, tone = 'error', onCancel, onConfirm }: ConfirmDialogProps) {
  const id = useId();
  return (
    <Dialog open={open} onClose={onCancel} aria-labelledby={`${id}-${title ? 'title' : 'text'}`}>
      {title && <DialogTitle id={`${id}-title`}>{title}</DialogTitle>}
      <DialogContent>
        <DialogContentText id={`${id}-text`}>{text}</DialogContentText>
      </DialogContent>
      <DialogActions>
        <Button onClick={onCancel}>{cancelLabel}</Button>
        <Button color={tone} variant="contained" onClick={onConfirm}>
          {confirmLabel}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
