import { createTheme } from '@mui/material/styles';
import { BRAND_COLOURS } from './brand';

export const theme = createTheme({
  palette: {
    primary: { main: BRAND_COLOURS.primary },
    secondary: { main: BRAND_COLOURS.secondary },
    background: { default: BRAND_COLOURS.background },
    // WCAG 2.2 AA: MUI's default orange (#ed6c02) and light blue (#0288d1) reach only
    // about 3:1 against white, so white chip text on them and their outlined buttons were
    // unreadable for many; these keep the hue at 4.5:1 or more on white and on the page grey.
    warning: { main: '#b24c00' },
    info: { main: '#01579b' },
    // Unselected toggle buttons and icons use `action.active`; MUI's 54 % black is 4.48:1 on the page grey.
    action: { active: 'rgba(0, 0, 0, 0.6)' },
  },
  shape: { borderRadius: 8 },
  components: { MuiButton: { styleOverrides: { root: { textTransform: 'none' } } } },
  typography: { fontFamily: '"Noto Sans", "Noto Sans CJK SC", "Noto Sans JP", "Segoe UI", Roboto, Arial, sans-serif' },
});
