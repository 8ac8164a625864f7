import { Badge, Box, IconButton, Tooltip } from '@mui/material';
import Campaign from '@mui/icons-material/CampaignOutlined';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router-dom';
import { visuallyHidden } from '../../components/visuallyHidden';
import { useApi } from '../../lib/use-api';

/** How often the header looks for new announcements (an opened one updates it at once). */
const UNREAD_REFRESH_MS = 60_000;

/** CT2: the header's way to the announcements, with the number not read yet. */
export function AnnouncementsButton() {
  const { t } = useTranslation();
  const { data } = useApi(
    'GET',
    '/content/announcements/unread-count',
    { silent: true },
    {
      refreshInterval: UNREAD_REFRESH_MS,
    },
  );
  const unread = data?.unread ?? 0;
  const label = unread > 0 ? t('header.announcementsUnread', { count: unread }) : t('header.announcements');
  return (
    <Tooltip title={label} describeChild>
      {/* The name comes from the (hidden) words, not an aria-label: the badge's number is only
          what the eye sees, and a name that does not contain it fails WCAG 2.5.3. */}
      <IconButton component={RouterLink} to="/announcements">
        <Box component="span" sx={visuallyHidden}>
          {label}
        </Box>
        <Badge badgeContent={unread} color="primary" max={99} aria-hidden>
          <Campaign />
        </Badge>
      </IconButton>
    </Tooltip>
  );
}
