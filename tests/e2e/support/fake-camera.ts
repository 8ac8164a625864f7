import { writeFileSync } from 'node:fs';
import QRCode from 'qrcode';

// A video file for Chromium's fake camera (--use-file-for-fake-video-capture): YUV4MPEG2, 4:2:0,
// grey (chroma 128), showing the QR code of `text` drawn from the `qrcode` package's matrix into
// the luma plane, dark modules on a white card, centred on a mid-grey background. Chromium
// plays the file in a loop, so the badge stays in view for as long as the page watches.

export interface BadgeVideo {
  width?: number;
  height?: number;
  /** Frames in the file (looped by Chromium). */
  frames?: number;
  fps?: number;
  /** Pixels per QR module. */
  moduleSize?: number;
}

/** The QR code's dark/light matrix (true = dark), with its 4-module quiet zone. */
export function qrMatrix(text: string): boolean[][] {
  const { modules } = QRCode.create(text, { errorCorrectionLevel: 'M' });
  const quiet = 4;
  const size = modules.size + quiet * 2;
  return Array.from({ length: size }, (_, row) =>
    Array.from({ length: size }, (_, column) => {
      const r = row - quiet;
      const c = column - quiet;
      return r >= 0 && c >= 0 && r < modules.size && c < modules.size && Boolean(modules.get(r, c));
    }),
  );
}

/** The luma plane (one byte a pixel) of a frame showing the QR code of `text` in its centre. */
export function badgeLuma(text: string, width: number, height: number, moduleSize: number): Uint8Array {
  const luma = new Uint8Array(width * height).fill(110);
  const matrix = qrMatrix(text);
  const side = matrix.length * moduleSize;
  const left = Math.floor((width - side) / 2);
  const top = Math.floor((height - side) / 2);
  for (let y = 0; y < side; y++) {
    const row = matrix[Math.floor(y / moduleSize)]!;
    for (let x = 0; x < side; x++) {
      const px = left + x;
      const py = top + y;
      if (px < 0 || py < 0 || px >= width || py >= height) continue;
      luma[py * width + px] = row[Math.floor(x / moduleSize)] ? 20 : 235;
    }
  }
  return luma;
}

export function writeBadgeY4m(file: string, text: string, { width = 640, height = 480, frames = 30, fps = 15, moduleSize = 8 }: BadgeVideo = {}) {
  const luma = badgeLuma(text, width, height, moduleSize);
  const chroma = Buffer.alloc((width / 2) * (height / 2) * 2, 128);
  const header = Buffer.from(`YUV4MPEG2 W${width} H${height} F${fps}:1 Ip A1:1 C420jpeg\n`);
  const frame = Buffer.concat([Buffer.from('FRAME\n'), luma, chroma]);
  writeFileSync(file, Buffer.concat([header, ...Array.from({ length: frames }, () => frame)]));
}
