// The portal's colours, shared by the MUI theme and by what the build writes outside React (the
// installable app's manifest and theme colour). Plain data: vite.config.ts imports it in Node.
export const BRAND_COLOURS = {
  primary: '#0b5c45',
  secondary: '#b07d05',
  background: '#f5f7f6',
} as const;
