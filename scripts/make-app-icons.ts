import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { ROOT } from './catalogue-source';

// The installable app's icons (web app manifest), drawn from the favicon's mark in the portal's
// colours: `npx tsx scripts/make-app-icons.ts` writes public/icons/*.png (committed). The maskable
// icon fills the whole square and keeps the mark inside the central safe circle (40 % radius),
// since launchers crop it to their own shape.

const GREEN = '#0b5c45';
const GOLD = '#f2b705';
const MARK = `<path d="M9 22V10h9a4 4 0 0 1 0 8h-9" stroke="${GOLD}" stroke-width="3" fill="none" stroke-linecap="square"/>`;

function svg(size: number, maskable: boolean): string {
  // The favicon's 32-unit drawing, scaled; the maskable one shrinks the mark to the safe zone.
  const markScale = maskable ? 0.62 : 1;
  const offset = (32 - 32 * markScale) / 2;
  const background = maskable ? `<rect width="32" height="32" fill="${GREEN}"/>` : `<rect width="32" height="32" rx="6" fill="${GREEN}"/>`;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 32 32">${background}<g transform="translate(${offset} ${offset}) scale(${markScale})">${MARK}</g></svg>`;
}

const outDir = join(ROOT, 'public', 'icons');
mkdirSync(outDir, { recursive: true });
const icons = [
  { file: 'app-192.png', size: 192, maskable: false },
  { file: 'app-512.png', size: 512, maskable: false },
  { file: 'app-maskable-512.png', size: 512, maskable: true },
  { file: 'apple-touch-icon-180.png', size: 180, maskable: true },
];
for (const icon of icons) {
  const png = await sharp(Buffer.from(svg(icon.size, icon.maskable)))
    .png({ compressionLevel: 9, palette: true })
    .toBuffer();
  writeFileSync(join(outDir, icon.file), png);
  console.log(`${icon.file}: ${png.length} bytes`);
}
