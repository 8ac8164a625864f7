import { CssBaseline, ThemeProvider } from '@mui/material';
import { RouterProvider } from 'react-router-dom';
import { SWRConfig } from 'swr';
import { Toaster } from '../components/Toaster';
import { router } from './router';
import { theme } from './theme';

export function App() {
  return (
    <ThemeProvider theme={theme}>
      <CssBaseline />
      <SWRConfig value={{ shouldRetryOnError: false }}>
        <RouterProvider router={router} />
        <Toaster />
      </SWRConfig>
    </ThemeProvider>
  );
}
