// Placeholder so the scanner page compiles on its own branch: the camera branch (scanner-cam) replaces this file.
export function signalScan(_kind: 'created' | 'duplicate' | 'quota' | 'invalid' | 'queued'): void {}
