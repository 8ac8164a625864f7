// A badge held in front of the camera is read on every decoded frame (ten times a second). It is
// one scan: a code is passed on when it first appears, and again only after it was out of view
// for `goneAfterMs` (a visitor who steps back and shows the badge again) or another code was read
// in between. Frames where the reader missed it (blur, glare) within that time do not count as gone.

export const GONE_AFTER_MS = 1500;

export interface RepeatGuard {
  /** The codes of one frame read at `now` (ms); answers those to pass on. */
  accept(codes: readonly string[], now: number): string[];
  /** Forget what was seen (e.g. the camera was switched or paused). */
  reset(): void;
}

export function createRepeatGuard(goneAfterMs = GONE_AFTER_MS): RepeatGuard {
  /** Code → when it was last seen, for the codes currently in view. */
  let inView = new Map<string, number>();
  return {
    accept(codes, now) {
      const inFrame = new Set(codes);
      const fresh = [...inFrame].filter((code) => {
        const seenAt = inView.get(code);
        return seenAt === undefined || now - seenAt >= goneAfterMs;
      });
      // A new code read means the earlier badge was put away: it counts again when it comes back.
      if (fresh.length > 0) for (const code of inView.keys()) if (!inFrame.has(code)) inView.delete(code);
      for (const code of inFrame) inView.set(code, now);
      return fresh;
    },
    reset() {
      inView = new Map();
    },
  };
}
