import { createTheme } from '@mui/material/styles';

export const theme = createTheme({
  palette: {
    primary: { main: '#0b5c45' },
    secondary: { main: '#b07d05' },
    background: { default: '#f5f7f6' },
  },
  shape: { borderRadius: 8 },
  components: { MuiButton: { styleOverrides: { root: { textTransform: 'none' } } } },
  typography: { fontFamily: '"Noto Sans", "Noto Sans CJK SC", "Noto Sans JP", "Segoe UI", Roboto, Arial, sans-serif' },
});
