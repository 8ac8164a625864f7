import { Box } from '@mui/material';
import { Outlet } from 'react-router-dom';

/** Login, reset and error pages: no header or menu. */
export function PublicLayout() {
  return (
    <Box component="main" sx={{ minHeight: '100vh', display: 'flex', alignItems: 'center', justifyContent: 'center', p: 2, bgcolor: 'background.default' }}>
      <Outlet />
    </Box>
  );
}
