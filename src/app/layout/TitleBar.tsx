import { useEffect, useRef } from 'react';
import { Box, Chip, IconButton, Typography } from '@mui/material';
import ArrowBack from '@mui/icons-material/ArrowBack';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate, useSearchParams } from 'react-router-dom';
import { showsBackArrow } from '../../engine/catalogue';
import type { Screen } from '../../engine/schemas/screen';
import { useCatalogue } from '../../lib/catalogue';
import { openedWithToken } from '../../lib/link-code';

/** Y1 and Y2: the route title, an orderName with its first word as a tag, and the back arrow. */
export function TitleBar({ screen }: { screen: Screen }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const orderName = params.get('orderName')?.trim();
  const [firstWord, ...rest] = orderName ? orderName.split(/\s+/) : [];
  const { pathname } = useLocation();
  const heading = useRef<HTMLHeadingElement>(null);
  const previousPath = useRef(pathname);
  // After a move to another screen, focus goes to its title, so keyboard and screen-reader users
  // start reading the new page (not the link they left). Not on the first page of a visit.
  useEffect(() => {
    if (previousPath.current === pathname) return;
    previousPath.current = pathname;
    heading.current?.focus({ preventScroll: false });
  }, [pathname]);
  const catalogue = useCatalogue();
  // Y2: a page opened with ?token= (moved out of the address bar at start) goes back to the forms, not out of the portal.
  const back = () => (params.has('token') || openedWithToken(window.history) ? navigate('/orderForms') : navigate(-1));
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, mb: 2, minWidth: 0 }}>
      {showsBackArrow(catalogue, screen) && (
        <IconButton onClick={back} aria-label={t('layout.back')}>
          <ArrowBack />
        </IconButton>
      )}
      <Typography
        variant="h5"
        component="h1"
        ref={heading}
        tabIndex={-1}
        sx={{ overflowWrap: 'anywhere', '&:focus': { outline: 'none' }, '&:focus-visible': { outline: 2, outlineOffset: 2 } }}
      >
        {orderName ? (
          <>
            <Chip label={firstWord} color="primary" size="small" sx={{ mr: 1, verticalAlign: 'middle' }} />
            {rest.join(' ')}
          </>
        ) : (
          t(screen.title)
        )}
      </Typography>
    </Box>
  );
}
