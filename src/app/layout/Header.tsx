import { useRef, useState } from 'react';
import { AppBar, Avatar, Box, Button, IconButton, InputAdornment, Menu, MenuItem, TextField, Toolbar, Tooltip, Typography, useMediaQuery } from '@mui/material';
import AccountCircle from '@mui/icons-material/AccountCircleOutlined';
import HomeIcon from '@mui/icons-material/HomeOutlined';
import Logout from '@mui/icons-material/Logout';
import MenuIcon from '@mui/icons-material/Menu';
import SearchIcon from '@mui/icons-material/Search';
import Translate from '@mui/icons-material/Translate';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useNavigate } from 'react-router-dom';
import { LANGUAGE_OPTIONS, type Language } from '../../engine/language';
import { changeLanguage, currentLanguage } from '../../lib/i18n';
import type { AccountInfo } from '../../lib/session';
import { AnnouncementsButton } from './AnnouncementsButton';
import { LogoutDialog } from './LogoutDialog';

/** Y4: the search box shows only when the user's modules include Manuals or Forms. */
export function showsSearch(displayedModules: readonly string[]): boolean {
  return displayedModules.includes('Manuals') || displayedModules.includes('Forms');
}

/** H1, H4, Y4, L1: exhibition, exhibitor, booth, logo, search, language, account, logout. */
export function Header({
  account,
  displayedModules,
  onToggleMenu,
  menuToggleLabel,
  menuExpanded,
}: {
  account: AccountInfo | undefined;
  displayedModules: readonly string[];
  onToggleMenu?: () => void;
  menuToggleLabel?: string;
  menuExpanded?: boolean;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [languageAnchor, setLanguageAnchor] = useState<HTMLElement | null>(null);
  const [accountAnchor, setAccountAnchor] = useState<HTMLElement | null>(null);
  const [logoutOpen, setLogoutOpen] = useState(false);
  const [keyword, setKeyword] = useState('');
  // On a phone the search hides behind an icon and opens as a row of its own.
  const [searchOpen, setSearchOpen] = useState(false);
  const searchButton = useRef<HTMLButtonElement>(null);
  const hideAccountHome = account?.hideAccountHome === true;
  const language = currentLanguage();
  const languageLabel = LANGUAGE_OPTIONS.find((option) => option.code === language)?.label ?? '';
  // L1: on a phone the header is one row: icons named by their labels, the event and exhibitor
  // on one line each (cut with an ellipsis, in full on hover), logout inside the account menu.
  const compact = useMediaQuery('(max-width:599.95px)', { noSsr: true });
  const searchShown = showsSearch(displayedModules);
  const oneLine = compact ? ({ whiteSpace: 'nowrap', overflow: 'hidden', textOverflow: 'ellipsis' } as const) : ({ overflowWrap: 'anywhere' } as const);
  const searchBox = (
    <TextField
      size="small"
      type="search"
      autoFocus={compact}
      sx={{ flex: { xs: '1 1 100%', sm: '0 1 16rem' }, order: { xs: 10, sm: 0 } }}
      placeholder={t('header.searchPlaceholder')}
      value={keyword}
      onChange={(event) => setKeyword(event.target.value)}
      onKeyDown={(event) => {
        if (event.key === 'Enter' && keyword.trim()) {
          navigate(`/search?keyword=${encodeURIComponent(keyword.trim())}`);
          if (compact) setSearchOpen(false);
        }
        if (event.key === 'Escape' && compact) {
          setSearchOpen(false);
          searchButton.current?.focus();
        }
      }}
      slotProps={{
        htmlInput: { 'aria-label': t('header.search') },
        input: {
          startAdornment: (
            <InputAdornment position="start">
              <SearchIcon fontSize="small" />
            </InputAdornment>
          ),
        },
      }}
    />
  );

  return (
    // A phone's screen is too short for a header that stays on top: it scrolls away there.
    <AppBar position="sticky" color="inherit" elevation={1} component="header" sx={{ position: { xs: 'static', md: 'sticky' } }}>
      <Toolbar sx={{ gap: { xs: 0.5, sm: 2 }, flexWrap: 'wrap', py: { xs: 0.5, sm: 1, md: 0.5 }, px: { xs: 1, sm: 2 } }}>
        {onToggleMenu && (
          <IconButton onClick={onToggleMenu} aria-label={menuToggleLabel} aria-expanded={menuExpanded}>
            <MenuIcon />
          </IconButton>
        )}
        {!hideAccountHome && !compact && (
          <Tooltip title={t('menu.accountHome')}>
            <IconButton component={RouterLink} to="/home" aria-label={t('menu.accountHome')}>
              <HomeIcon />
            </IconButton>
          </Tooltip>
        )}
        {/* H1: event, exhibitor and booth wrap onto more lines rather than being cut off. */}
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.5, minWidth: 0, flex: { xs: '1 1 0', sm: '1 1 12rem' } }}>
          {account?.companyLog && !compact && (
            <Avatar src={account.companyLog} alt={t('header.companyLogo', { name: account.name })} variant="rounded" sx={{ width: 40, height: 40 }} />
          )}
          <Box
            sx={{ minWidth: 0 }}
            title={compact ? [account?.exhibitName, account?.name, account?.boothNum ? t('header.booth', { booth: account.boothNum }) : ''].filter(Boolean).join(' · ') : undefined}
          >
            <Typography
              variant="subtitle1"
              component="p"
              sx={{ fontWeight: 600, lineHeight: 1.3, ...oneLine, fontSize: { xs: '0.9rem', sm: '1rem' } }}
              data-testid="exhibition-name"
            >
              {account?.exhibitName}
            </Typography>
            <Typography variant="body2" color="text.secondary" sx={{ ...oneLine, fontSize: { xs: '0.8rem', sm: '0.875rem' } }}>
              <span data-testid="exhibitor-name">{account?.name}</span>
              {account?.boothNum ? <> · {t('header.booth', { booth: account.boothNum })}</> : null}
            </Typography>
          </Box>
        </Box>
        {searchShown && !compact && searchBox}
        {searchShown && compact && (
          <Tooltip title={t('header.search')}>
            <IconButton ref={searchButton} onClick={() => setSearchOpen((open) => !open)} aria-label={t('header.search')} aria-expanded={searchOpen}>
              <SearchIcon />
            </IconButton>
          </Tooltip>
        )}
        {account?.exhibitCode && <AnnouncementsButton />}
        {compact ? (
          <IconButton onClick={(event) => setLanguageAnchor(event.currentTarget)} aria-haspopup="menu" aria-label={t('header.languageCurrent', { language: languageLabel })}>
            <Translate />
          </IconButton>
        ) : (
          <Button
            startIcon={<Translate />}
            onClick={(event) => setLanguageAnchor(event.currentTarget)}
            aria-haspopup="menu"
            aria-label={t('header.languageCurrent', { language: languageLabel })}
          >
            {/* A language is named in itself, never translated: marked so (and read in its own voice). */}
            <span lang={language === 'cn' ? 'zh' : language}>{languageLabel}</span>
          </Button>
        )}
        <Menu anchorEl={languageAnchor} open={Boolean(languageAnchor)} onClose={() => setLanguageAnchor(null)}>
          {LANGUAGE_OPTIONS.map((option) => (
            <MenuItem
              key={option.code}
              selected={option.code === language}
              lang={option.code === 'cn' ? 'zh' : option.code}
              onClick={() => {
                setLanguageAnchor(null);
                if (option.code !== language) changeLanguage(option.code as Language);
              }}
            >
              {option.label}
            </MenuItem>
          ))}
        </Menu>
        {compact ? (
          <Tooltip title={t('header.account')}>
            <IconButton onClick={(event) => setAccountAnchor(event.currentTarget)} aria-haspopup="menu" aria-label={t('header.account')}>
              <AccountCircle />
            </IconButton>
          </Tooltip>
        ) : (
          <Button startIcon={<AccountCircle />} onClick={(event) => setAccountAnchor(event.currentTarget)} aria-haspopup="menu">
            {t('header.account')}
          </Button>
        )}
        <Menu anchorEl={accountAnchor} open={Boolean(accountAnchor)} onClose={() => setAccountAnchor(null)}>
          {!hideAccountHome && (
            <MenuItem component={RouterLink} to="/home" onClick={() => setAccountAnchor(null)}>
              {t('menu.accountHome')}
            </MenuItem>
          )}
          <MenuItem component={RouterLink} to="/my-account" onClick={() => setAccountAnchor(null)}>
            {t('header.myAccount')}
          </MenuItem>
          {compact && (
            <MenuItem
              onClick={() => {
                setAccountAnchor(null);
                setLogoutOpen(true);
              }}
            >
              {t('header.logout')}
            </MenuItem>
          )}
        </Menu>
        {!compact && (
          <Button startIcon={<Logout />} onClick={() => setLogoutOpen(true)}>
            {t('header.logout')}
          </Button>
        )}
        {compact && searchOpen && searchBox}
      </Toolbar>
      <LogoutDialog open={logoutOpen} onClose={() => setLogoutOpen(false)} />
    </AppBar>
  );
}
