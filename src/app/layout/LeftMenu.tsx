import { Box, Collapse, Link, List, ListItemButton, ListItemIcon, ListItemText } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { NavLink, useLocation } from 'react-router-dom';
import type { MenuItem } from '../../engine/catalogue';
import { MENU_ICONS } from './icons';

function MenuEntry({ item, depth }: { item: MenuItem; depth: number }) {
  const { pathname } = useLocation();
  const Icon = item.icon ? MENU_ICONS[item.icon] : null;
  const open = pathname === item.path || pathname.startsWith(`${item.path}/`) || item.children.some((c) => pathname.startsWith(c.path));
  return (
    <li>
      <ListItemButton component={NavLink} to={item.path} sx={{ pl: 2 + depth * 2 }} selected={pathname === item.path}>
        {Icon && (
          <ListItemIcon sx={{ minWidth: 36 }}>
            <Icon />
          </ListItemIcon>
        )}
        <ListItemText primary={item.label} slotProps={{ primary: { sx: { overflowWrap: 'anywhere' } } }} />
      </ListItemButton>
      {item.children.length > 0 && (
        <Collapse in={open || depth === 0} unmountOnExit={false}>
          <List disablePadding>
            {item.children.map((child) => (
              <MenuEntry key={child.id} item={child} depth={depth + 1} />
            ))}
          </List>
        </Collapse>
      )}
    </li>
  );
}

/** P3 and Y5: the permitted, non-hidden screens, and the event logo linking to the event site. */
export function LeftMenu({
  items,
  eventLog,
  eventUrl,
  eventName,
  inDrawer = false,
}: {
  items: MenuItem[];
  eventLog?: string;
  eventUrl?: string;
  eventName?: string;
  /** Inside the narrow screen's drawer: fill it instead of the desktop's 260 px column. */
  inDrawer?: boolean;
}) {
  const { t } = useTranslation();
  return (
    <Box
      component="nav"
      aria-label={t('menu.label')}
      sx={{
        width: inDrawer ? '100%' : 260,
        minHeight: inDrawer ? '100%' : undefined,
        flexShrink: 0,
        borderRight: 1,
        borderColor: 'divider',
        bgcolor: 'background.paper',
        display: 'flex',
        flexDirection: 'column',
      }}
    >
      <List sx={{ flex: 1 }}>
        {items.map((item) => (
          <MenuEntry key={item.id} item={item} depth={0} />
        ))}
      </List>
      {eventLog && (
        <Box sx={{ p: 2, borderTop: 1, borderColor: 'divider', textAlign: 'center' }}>
          <Link href={eventUrl} target="_blank" rel="noopener noreferrer" aria-label={t('menu.eventWebsite')}>
            <img src={eventLog} alt={t('header.eventLogo', { name: eventName ?? '' })} style={{ maxWidth: '100%', height: 56 }} />
          </Link>
        </Box>
      )}
    </Box>
  );
}
