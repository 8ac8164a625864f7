import { useEffect, useMemo, useRef, useState } from 'react';
import { Box, Container, CssBaseline, Drawer, ThemeProvider, useMediaQuery } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { Outlet, useLocation } from 'react-router-dom';
import { buildMenu } from '../../engine/catalogue';
import { DRAWER_BELOW_PX } from '../../engine/constants';
import { useCatalogue } from '../../lib/catalogue';
import { typedApi } from '../../lib/api';
import { useAccountInfo, useUserInfo } from '../../lib/session';
import { Footer } from './Footer';
import { Header } from './Header';
import { InactivityWatcher } from './InactivityWatcher';
import { LeftMenu } from './LeftMenu';
import { TitleBar } from './TitleBar';
import { useCurrentScreen } from './useCurrentScreen';
import { RequireSession } from '../guards';
import { theme } from '../theme';

const WIDE_SCREEN_QUERY = `(min-width:${DRAWER_BELOW_PX}px)`;

/** The frame around signed-in pages; `withMenu` is false for the second layout group. */
export function SignedInFrame({ withMenu }: { withMenu: boolean }) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const { data: user } = useUserInfo();
  const { data: account } = useAccountInfo();
  const screen = useCurrentScreen();
  const modules = user?.displayedModule ?? [];
  const role = user?.role;
  const catalogue = useCatalogue();
  const menu = useMemo(() => buildMenu(catalogue, modules, (key) => t(key), role), [catalogue, modules, t, role]);
  const [menuOpen, setMenuOpen] = useState(user?.showLeftMenus ?? true);
  const onHome = pathname === '/home';
  // noSsr: read the width on the first render, so a phone never flashes the open desktop menu.
  const wide = useMediaQuery(WIDE_SCREEN_QUERY, { noSsr: true });
  // On a narrow screen the menu is a drawer: closed by default, closed again by navigating.
  const [drawerOpen, setDrawerOpen] = useState(false);
  const [drawerPath, setDrawerPath] = useState(pathname);
  if (drawerPath !== pathname) {
    setDrawerPath(pathname);
    setDrawerOpen(false);
  }

  // Y3: Home shows its tips instead of the menu; arriving at Home reopens the menu. Decided
  // while rendering (not in an effect) so leaving Home at once cannot skip it.
  if (onHome && !menuOpen) setMenuOpen(true);
  // The saved setting follows what the user last saw, so a reload shows the same; the request is
  // kept alive so that a reload straight after the change does not cut it off.
  const savedSetting = useRef(menuOpen);
  useEffect(() => {
    if (savedSetting.current === menuOpen) return;
    savedSetting.current = menuOpen;
    void typedApi.put('/user/settings', { body: { showLeftMenus: menuOpen }, silent: true, skipDuplicateCheck: true, keepalive: true }).catch(() => undefined);
  }, [menuOpen]);

  const toggleMenu = () => setMenuOpen(!menuOpen);
  const showMenu = withMenu && !onHome;
  // Y3 (Home shows tips instead of the menu) is about the desktop's side menu; on a phone the
  // drawer stays reachable from Home too, closed until asked for.
  const showDrawerButton = withMenu && !wide;
  const leftMenu = (inDrawer: boolean) => <LeftMenu items={menu} eventLog={account?.eventLog} eventUrl={account?.eventUrl} eventName={account?.exhibitName} inDrawer={inDrawer} />;

  return (
    <ThemeProvider theme={theme}>
      <CssBaseline />
      <Box sx={{ minHeight: '100vh', display: 'flex', flexDirection: 'column' }}>
        <Header
          account={account}
          displayedModules={modules}
          onToggleMenu={showDrawerButton ? () => setDrawerOpen(true) : showMenu ? toggleMenu : undefined}
          menuToggleLabel={t(showDrawerButton ? 'menu.open' : menuOpen ? 'menu.collapse' : 'menu.expand')}
          menuExpanded={showDrawerButton ? drawerOpen : menuOpen}
        />
        {showDrawerButton && (
          <Drawer open={drawerOpen} onClose={() => setDrawerOpen(false)} slotProps={{ paper: { sx: { width: 'min(300px, 85vw)' } } }}>
            {leftMenu(true)}
          </Drawer>
        )}
        <Box sx={{ display: 'flex', flex: 1, minHeight: 0 }}>
          {wide && showMenu && menuOpen && leftMenu(false)}
          <Box component="main" id="main" sx={{ flex: 1, minWidth: 0, display: 'flex', flexDirection: 'column' }}>
            {/* The page fills the screen below the header, so the footer starts below the fold and a
              page's content arriving never moves it under the reader's eyes (layout shift, CLS). */}
            <Container maxWidth="lg" sx={{ py: { xs: 2, sm: 3 }, px: { xs: 1.5, sm: 3 }, flex: 1, minHeight: { xs: 'calc(100vh - 56px)', sm: 'calc(100vh - 64px)' } }}>
              {screen && <TitleBar screen={screen} />}
              <Outlet />
            </Container>
            <Footer termsUrl={account?.termsUrl} organiser={account?.exhibitName} />
          </Box>
        </Box>
        {user && <InactivityWatcher idleSeconds={user.session.idleSeconds} warningSeconds={user.session.warningSeconds} />}
      </Box>
    </ThemeProvider>
  );
}

/** The main layout group: header, left menu, title bar, footer. */
export function MainFrame() {
  return (
    <RequireSession>
      <SignedInFrame withMenu />
    </RequireSession>
  );
}

/** The second layout group of spec §2 (/announcements, /search, /my-account): no left menu. */
export function AccountFrame() {
  return (
    <RequireSession>
      <SignedInFrame withMenu={false} />
    </RequireSession>
  );
}
