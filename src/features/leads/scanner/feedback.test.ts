import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

// A recording stand-in for Web Audio: jsdom has none.
class FakeParam {
  events: Array<[string, number, number]> = [];
  setValueAtTime(value: number, at: number) {
    this.events.push(['set', value, at]);
  }
  linearRampToValueAtTime(value: number, at: number) {
    this.events.push(['ramp', value, at]);
  }
}
const played: Array<{ type: string; frequency: FakeParam; start: number; stop: number }> = [];
class FakeContext {
  state = 'running';
  currentTime = 0;
  destination = {};
  resume = vi.fn(async () => undefined);
  createOscillator() {
    const oscillator = {
      type: 'sine',
      frequency: new FakeParam(),
      start: 0,
      stop: 0,
      connect: (node: unknown) => node,
    };
    return {
      ...oscillator,
      set type(value: string) {
        oscillator.type = value;
      },
      connect: (node: unknown) => node,
      start(at: number) {
        oscillator.start = at;
      },
      stop(at: number) {
        oscillator.stop = at;
        played.push(oscillator);
      },
    };
  }
  createGain() {
    return { gain: new FakeParam(), connect: (node: unknown) => node };
  }
}

describe('signalScan', () => {
  let vibrate: ReturnType<typeof vi.fn>;
  beforeEach(() => {
    vi.resetModules();
    played.length = 0;
    vi.stubGlobal('AudioContext', FakeContext);
    vibrate = vi.fn(() => true);
    Object.defineProperty(navigator, 'vibrate', { value: vibrate, configurable: true });
  });
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('plays each kind as its own tones and vibrates its own pattern', async () => {
    const { signalScan, TONES, VIBRATIONS } = await import('./feedback');
    signalScan('duplicate');
    expect(played.map((tone) => tone.type)).toEqual(TONES.duplicate.map((tone) => tone.wave));
    expect(played.map((tone) => tone.frequency.events[0]?.[1])).toEqual(TONES.duplicate.map((tone) => tone.frequency));
    expect(vibrate).toHaveBeenCalledWith([...VIBRATIONS.duplicate]);
    // Tones follow each other, never overlap.
    expect(played[1]!.start).toBeGreaterThan(played[0]!.stop - 0.011);
  });

  it('makes "already a lead" and "quota reached" unlike a new lead and unlike each other', async () => {
    const { TONES, VIBRATIONS } = await import('./feedback');
    const sound = (kind: keyof typeof TONES) => JSON.stringify(TONES[kind]);
    const kinds = Object.keys(TONES) as Array<keyof typeof TONES>;
    expect(new Set(kinds.map(sound)).size).toBe(kinds.length);
    expect(new Set(kinds.map((kind) => JSON.stringify(VIBRATIONS[kind]))).size).toBe(kinds.length);
    // The quota signal is the longest and lowest: noticeable in a loud hall.
    const length = (kind: keyof typeof TONES) => VIBRATIONS[kind].reduce((sum, ms) => sum + ms, 0);
    expect(length('quota')).toBeGreaterThan(length('created') * 5);
    expect(Math.max(...TONES.quota.map((tone) => tone.frequency))).toBeLessThan(Math.min(...TONES.created.map((tone) => tone.frequency)));
    // "Already a lead" is a repeated flat tone, a new lead a rising pair.
    expect(TONES.duplicate[0]!.frequency).toBe(TONES.duplicate[1]!.frequency);
    expect(TONES.created[1]!.frequency).toBeGreaterThan(TONES.created[0]!.frequency);
  });

  it('resumes a suspended audio context (a phone that locked) and still plays', async () => {
    const resume = vi.fn(async () => undefined);
    vi.stubGlobal(
      'AudioContext',
      class extends FakeContext {
        override state = 'suspended';
        override resume = resume;
      },
    );
    const { signalScan, TONES } = await import('./feedback');
    signalScan('created');
    expect(resume).toHaveBeenCalled();
    expect(played).toHaveLength(TONES.created.length);
  });

  it('still vibrates where there is no Web Audio, and stays silent without either', async () => {
    vi.stubGlobal('AudioContext', undefined);
    const { signalScan, VIBRATIONS } = await import('./feedback');
    expect(() => signalScan('quota')).not.toThrow();
    expect(vibrate).toHaveBeenCalledWith([...VIBRATIONS.quota]);
    Object.defineProperty(navigator, 'vibrate', { value: undefined, configurable: true });
    expect(() => signalScan('invalid')).not.toThrow();
  });
});
