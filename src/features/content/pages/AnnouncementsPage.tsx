import { Alert, Badge, Card, CardActionArea, CardContent, Chip, Stack, Typography } from '@mui/material';
import PushPinOutlined from '@mui/icons-material/PushPinOutlined';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router-dom';
import { PAGINATION } from '../../../engine/constants';
import { Pagination } from '../../../components/Pagination';
import { PageLoading } from '../../../components/PageLoading';
import { UtcTime } from '../../../components/UtcTime';
import { useApi } from '../../../lib/use-api';
import { pageSize } from '../../../engine/pagination';
import { useAccountInfo } from '../../../lib/session';

/** CT2: announcements, unread first (pinned ones before others); "New" says unread in words. */
export default function AnnouncementsPage() {
  const { t } = useTranslation();
  const { data: account } = useAccountInfo();
  const [paging, setPaging] = useState({ page: PAGINATION.defaultPage, limit: PAGINATION.defaultLimit });
  const { data, error } = useApi('GET', '/content/announcements', { query: { page: paging.page, limit: pageSize(paging.limit) } });
  if (error) return <Alert severity="error">{error.message}</Alert>;
  if (!data) return <PageLoading />;
  if (data.total === 0) return <Typography color="text.secondary">{t('content.announcements.none')}</Typography>;
  return (
    <>
      <Typography sx={{ mb: 1 }}>{t('content.announcements.unreadCount', { count: data.unread })}</Typography>
      <Stack spacing={1.5} component="ul" sx={{ listStyle: 'none', p: 0, m: 0 }}>
        {data.items.map((item) => (
          <Card key={item.id} variant="outlined" component="li">
            <CardActionArea component={RouterLink} to={`/announcements/detail?id=${item.id}`}>
              <CardContent>
                <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap', rowGap: 1 }}>
                  {!item.read && <Badge color="primary" variant="dot" aria-hidden="true" />}
                  <Typography component="h2" sx={{ fontWeight: item.read ? 400 : 700, flex: '1 1 12rem' }}>
                    {item.title}
                  </Typography>
                  {item.pinned && <Chip size="small" icon={<PushPinOutlined />} label={t('content.announcements.pinned')} />}
                  {!item.read && <Chip size="small" color="primary" label={t('content.announcements.new')} />}
                </Stack>
                <Typography variant="body2" color="text.secondary">
                  <UtcTime value={item.publishedAt} offsetMinutes={account?.utcOffsetMinutes ?? 0} />
                </Typography>
              </CardContent>
            </CardActionArea>
          </Card>
        ))}
      </Stack>
      <Pagination total={data.total} page={data.page} limit={data.limit} onChange={setPaging} />
    </>
  );
}
