import { Alert, Box, Card, CardContent, Chip, Link, Stack, Tab, Tabs, Typography } from '@mui/material';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useApi } from '../../../lib/use-api';
import { UtcTime } from '../../../components/UtcTime';
import { PageLoading } from '../../../components/PageLoading';

const GROUPS = ['upcoming', 'live', 'past'] as const;

/** CT4: the exhibitor's events, grouped upcoming / live / past. */
export default function EventInfoPage() {
  const { t } = useTranslation();
  const { data, error } = useApi('GET', '/system/project/findAll');
  const [group, setGroup] = useState<(typeof GROUPS)[number]>('upcoming');
  if (error) return <Alert severity="error">{error.message}</Alert>;
  if (!data) return <PageLoading />;
  const shown = data.filter((event) => event.status === group);
  return (
    <Box>
      <Tabs value={group} onChange={(_, value) => setGroup(value)} aria-label={t('screens.eventInfo')} sx={{ mb: 2 }}>
        {GROUPS.map((name) => (
          <Tab key={name} value={name} label={`${t(`events.${name}`)} (${data.filter((e) => e.status === name).length})`} />
        ))}
      </Tabs>
      {shown.length === 0 && <Typography color="text.secondary">{t('events.none')}</Typography>}
      <Stack spacing={2} component="ul" sx={{ listStyle: 'none', p: 0 }}>
        {shown.map((event) => (
          <Card key={event.exhibitCode} variant="outlined" component="li">
            <CardContent>
              <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
                <Typography variant="h6" component="h2">
                  {event.exhibitName}
                </Typography>
                {event.current && <Chip size="small" color="primary" label={t('events.current')} />}
              </Stack>
              <Typography variant="body2">
                {t('events.dates')}: <UtcTime value={event.startsAt} offsetMinutes={event.utcOffsetMinutes} dateOrder={event.dateOrder} withTime={false} /> –{' '}
                <UtcTime value={event.endsAt} offsetMinutes={event.utcOffsetMinutes} dateOrder={event.dateOrder} withTime={false} />
              </Typography>
              <Typography variant="body2">
                {t('events.venue')}: {event.venue}
              </Typography>
              {event.boothNum && (
                <Typography variant="body2">
                  {t('events.booth')}: {event.boothNum}
                </Typography>
              )}
              {event.eventUrl && (
                <Link href={event.eventUrl} target="_blank" rel="noopener noreferrer" variant="body2">
                  {t('events.website')}
                </Link>
              )}
            </CardContent>
          </Card>
        ))}
      </Stack>
    </Box>
  );
}
