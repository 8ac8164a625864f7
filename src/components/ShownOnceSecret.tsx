import type { ReactNode } from 'react';
import { Alert, Button, TextField, Typography } from '@mui/material';
import { showToast } from '../lib/toast';

export interface ShownOnceSecretProps {
  /** Says what the value is for and that it is shown this once. */
  message: string;
  /** The field's label (the value's name: key, token, secret). */
  label: string;
  value: string;
  copyLabel: string;
  copiedMessage: string;
  /** What to do with it next (e.g. how to verify a signature), under the value. */
  hint?: ReactNode;
  onClose: () => void;
}

/**
 * A credential the server keeps only as a hash (API key, device token, webhook secret): shown once,
 * read-only, selected on focus and copied with one button, until the user closes it.
 */
export function ShownOnceSecret({ message, label, value, copyLabel, copiedMessage, hint, onClose }: ShownOnceSecretProps) {
  return (
    <Alert severity="success" onClose={onClose}>
      <Typography sx={{ mb: 1 }}>{message}</Typography>
      <TextField fullWidth size="small" label={label} value={value} slotProps={{ htmlInput: { readOnly: true, spellCheck: false } }} onFocus={(event) => event.target.select()} />
      {hint && (
        <Typography variant="body2" sx={{ mt: 1 }}>
          {hint}
        </Typography>
      )}
      <Button
        sx={{ mt: 1 }}
        size="small"
        onClick={() =>
          void navigator.clipboard?.writeText(value).then(
            () => showToast('success', copiedMessage),
            () => undefined,
          )
        }
      >
        {copyLabel}
      </Button>
    </Alert>
  );
}
