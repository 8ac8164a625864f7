// What a person at a noisy booth notices when a badge is read: a sound (Web Audio tones, no
// files to load or cache) and a vibration where the phone has one. Each outcome has its own:
// "already a lead" is two flat mid beeps and a double buzz; "quota reached" a long low tone and
// long buzzes, so neither is mistaken for a new lead's bright rising pair.

export type ScanSignal = 'created' | 'duplicate' | 'quota' | 'invalid' | 'queued';

export interface Tone {
  /** Hz */
  frequency: number;
  /** ms */
  duration: number;
  /** ms of silence before this tone */
  gap: number;
  wave: OscillatorType;
}

export const TONES: Record<ScanSignal, readonly Tone[]> = {
  created: [
    { frequency: 880, duration: 90, gap: 0, wave: 'sine' },
    { frequency: 1320, duration: 140, gap: 30, wave: 'sine' },
  ],
  queued: [{ frequency: 1046, duration: 110, gap: 0, wave: 'sine' }],
  duplicate: [
    { frequency: 587, duration: 120, gap: 0, wave: 'triangle' },
    { frequency: 587, duration: 120, gap: 90, wave: 'triangle' },
  ],
  quota: [{ frequency: 220, duration: 600, gap: 0, wave: 'square' }],
  invalid: [
    { frequency: 440, duration: 160, gap: 0, wave: 'sawtooth' },
    { frequency: 262, duration: 260, gap: 20, wave: 'sawtooth' },
  ],
};

/** navigator.vibrate patterns: on, off, on… in ms. */
export const VIBRATIONS: Record<ScanSignal, readonly number[]> = {
  created: [80],
  queued: [40],
  duplicate: [60, 80, 60],
  quota: [400, 150, 400],
  invalid: [150, 60, 150, 60, 150],
};

const VOLUME = 0.25;

let context: AudioContext | null = null;

function audioContext(): AudioContext | null {
  const Context = globalThis.AudioContext ?? (globalThis as { webkitAudioContext?: typeof AudioContext }).webkitAudioContext;
  if (!Context) return null;
  try {
    context ??= new Context();
  } catch {
    return null;
  }
  return context;
}

function play(tones: readonly Tone[]) {
  const audio = audioContext();
  if (!audio) return;
  // Browsers start the context suspended until a user gesture; iOS Safari also suspends it when
  // the app is in the background. Resuming here is harmless where it is not allowed yet.
  if (audio.state === 'suspended') void audio.resume().catch(() => undefined);
  let at = audio.currentTime + 0.01;
  for (const tone of tones) {
    at += tone.gap / 1000;
    const oscillator = audio.createOscillator();
    const gain = audio.createGain();
    oscillator.type = tone.wave;
    oscillator.frequency.setValueAtTime(tone.frequency, at);
    // A short ramp in and out: a square tone switched on at full volume clicks.
    const end = at + tone.duration / 1000;
    gain.gain.setValueAtTime(0, at);
    gain.gain.linearRampToValueAtTime(VOLUME, at + 0.01);
    gain.gain.setValueAtTime(VOLUME, Math.max(at + 0.01, end - 0.02));
    gain.gain.linearRampToValueAtTime(0, end);
    oscillator.connect(gain).connect(audio.destination);
    oscillator.start(at);
    oscillator.stop(end + 0.01);
    at = end;
  }
}

/** The sound and the vibration of one scan's outcome; silently nothing where the device has neither. */
export function signalScan(kind: ScanSignal): void {
  try {
    // Seen by the benchmark's PerformanceObserver; cleared so that marks do not pile up.
    performance.mark?.('scanner:feedback', { detail: kind });
    performance.clearMarks?.('scanner:feedback');
  } catch {
    // Marks are for the benchmark only.
  }
  try {
    play(TONES[kind]);
  } catch {
    // Sound is a convenience: a broken audio stack must not break scanning.
  }
  try {
    if (typeof navigator !== 'undefined' && typeof navigator.vibrate === 'function') navigator.vibrate([...VIBRATIONS[kind]]);
  } catch {
    // Some browsers throw when vibration is not allowed yet (no user gesture).
  }
}

/**
 * Unlocks audio on the first tap (iOS plays nothing from a context not resumed inside a gesture).
 * Call from a click or touch handler; later calls do nothing.
 */
export function unlockScanSound(): void {
  const audio = audioContext();
  if (audio?.state === 'suspended') void audio.resume().catch(() => undefined);
}
