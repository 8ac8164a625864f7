import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import en from '../../../../locales/en.json';
import CameraScanner from './CameraScanner';

// The camera refused or absent: the scanner says so in the user's language (the page's manual
// entry still works), and never calls onCode.

beforeAll(async () => {
  if (!i18next.isInitialized) {
    await i18next.use(initReactI18next).init({ resources: { en: { translation: en } }, lng: 'en', initAsync: false, interpolation: { escapeValue: false } });
  }
});

afterEach(() => {
  cleanup();
  Object.defineProperty(navigator, 'mediaDevices', { value: undefined, configurable: true });
});

function cameraFails(name: string) {
  const getUserMedia = vi.fn(async () => {
    throw new DOMException('camera', name);
  });
  Object.defineProperty(navigator, 'mediaDevices', { value: { getUserMedia, enumerateDevices: async () => [] }, configurable: true });
  return getUserMedia;
}

describe('CameraScanner', () => {
  it('asks for the rear camera, and says clearly when the camera was refused', async () => {
    const getUserMedia = cameraFails('NotAllowedError');
    const onCode = vi.fn();
    render(<CameraScanner onCode={onCode} />);
    expect((await screen.findByRole('alert')).textContent).toBe(en.scannerCamera.problem.denied);
    expect(getUserMedia).toHaveBeenCalledWith({ video: expect.objectContaining({ facingMode: { ideal: 'environment' } }), audio: false });
    expect(onCode).not.toHaveBeenCalled();
  });

  it('says there is no camera when the device has none', async () => {
    cameraFails('NotFoundError');
    render(<CameraScanner onCode={vi.fn()} />);
    expect((await screen.findByRole('alert')).textContent).toBe(en.scannerCamera.problem.absent);
  });

  it('says the camera is busy when another app holds it', async () => {
    cameraFails('NotReadableError');
    render(<CameraScanner onCode={vi.fn()} />);
    expect((await screen.findByRole('alert')).textContent).toBe(en.scannerCamera.problem.busy);
  });

  it('says there is no camera where the browser offers none', async () => {
    render(<CameraScanner onCode={vi.fn()} />);
    expect((await screen.findByRole('alert')).textContent).toBe(en.scannerCamera.problem.absent);
  });
});
