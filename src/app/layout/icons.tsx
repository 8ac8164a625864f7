import type { ComponentType } from 'react';
import Home from '@mui/icons-material/HomeOutlined';
import Dashboard from '@mui/icons-material/DashboardOutlined';
import Event from '@mui/icons-material/EventOutlined';
import Assignment from '@mui/icons-material/AssignmentOutlined';
import MenuBook from '@mui/icons-material/MenuBookOutlined';
import QrCodeScanner from '@mui/icons-material/QrCodeScannerOutlined';
import SupportAgent from '@mui/icons-material/SupportAgentOutlined';
import Send from '@mui/icons-material/SendOutlined';
import type { IconName } from '../../engine/schemas/screen';

/** Menu icons by the names screens.yaml may use (ICON_NAMES). */
export const MENU_ICONS: Record<IconName, ComponentType> = {
  home: Home,
  dashboard: Dashboard,
  event: Event,
  forms: Assignment,
  manuals: MenuBook,
  leads: QrCodeScanner,
  support: SupportAgent,
  invite: Send,
};
