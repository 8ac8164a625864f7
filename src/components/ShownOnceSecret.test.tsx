import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { ConfirmDialog } from './ConfirmDialog';
import { ShownOnceSecret } from './ShownOnceSecret';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('a credential shown once', () => {
  it('shows the value read-only under its label, copies it, and closes', async () => {
    const writeText = vi.fn(() => Promise.resolve());
    vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText } });
    const onClose = vi.fn();
    render(<ShownOnceSecret message="Copy the key now" label="API key" value="pk_live_123" hint="Sign with HMAC" copyLabel="Copy" copiedMessage="Copied" onClose={onClose} />);
    const field = screen.getByRole<HTMLInputElement>('textbox', { name: 'API key' });
    expect(field.value).toBe('pk_live_123');
    expect(field.readOnly).toBe(true);
    expect(screen.getByText('Sign with HMAC')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Copy' }));
    expect(writeText).toHaveBeenCalledWith('pk_live_123');
    fireEvent.click(screen.getByRole('button', { name: 'Close' }));
    expect(onClose).toHaveBeenCalledOnce();
  });
});

describe('confirming an action that cannot be undone', () => {
  it('is named by its title, and only the confirm button confirms', () => {
    const onConfirm = vi.fn();
    const onCancel = vi.fn();
    render(<ConfirmDialog open title="Revoke key?" text="Apps using it stop working." cancelLabel="Cancel" confirmLabel="Revoke" onCancel={onCancel} onConfirm={onConfirm} />);
    const dialog = screen.getByRole('dialog', { name: 'Revoke key?' });
    expect(dialog.textContent).toContain('Apps using it stop working.');
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(onCancel).toHaveBeenCalledOnce();
    expect(onConfirm).not.toHaveBeenCalled();
    fireEvent.click(screen.getByRole('button', { name: 'Revoke' }));
    expect(onConfirm).toHaveBeenCalledOnce();
  });

  it('without a title is named by its question', () => {
    render(<ConfirmDialog open text="Delete the tag Hot?" cancelLabel="Cancel" confirmLabel="Delete" onCancel={() => undefined} onConfirm={() => undefined} />);
    expect(screen.getByRole('dialog', { name: 'Delete the tag Hot?' })).toBeTruthy();
  });
});
