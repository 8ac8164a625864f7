import { Alert, Paper, Typography } from '@mui/material';
import { useEffect } from 'react';
import { Navigate, useSearchParams } from 'react-router-dom';
import { useSWRConfig } from 'swr';
import { Markdown } from '../../../components/Markdown';
import { PageLoading } from '../../../components/PageLoading';
import { UtcTime } from '../../../components/UtcTime';
import { useApi, apiKeyMatches } from '../../../lib/use-api';
import { useAccountInfo } from '../../../lib/session';

/** CT2: one announcement; opening it marks it read (the header count follows). */
export default function AnnouncementDetailPage() {
  const [params] = useSearchParams();
  const id = Number(params.get('id'));
  const valid = Number.isInteger(id) && id > 0;
  const { data: account } = useAccountInfo();
  const { mutate } = useSWRConfig();
  const { data, error } = useApi('GET', '/content/announcements/{id}', { path: { id } }, { enabled: valid });
  useEffect(() => {
    // The server marked it read: the unread count and the list are out of date.
    if (data) void mutate(apiKeyMatches('/content/announcements/unread-count', '/content/announcements'));
  }, [data, mutate]);
  if (!valid) return <Navigate to="/announcements" replace />;
  if (error) return <Alert severity="error">{error.message}</Alert>;
  if (!data) return <PageLoading />;
  return (
    <Paper variant="outlined" sx={{ p: { xs: 2, md: 3 } }}>
      <Typography variant="h5" component="h2">
        {data.title}
      </Typography>
      <Typography variant="body2" color="text.secondary">
        <UtcTime value={data.publishedAt} offsetMinutes={account?.utcOffsetMinutes ?? 0} />
      </Typography>
      <Markdown source={data.body} />
    </Paper>
  );
}
