import { Alert, Box, Button, Card, CardActions, CardContent, MenuItem, TextField, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router-dom';
import { formatEventTimeWithOffset } from '../../../engine/locale-format';
import { currentLanguage } from '../../../lib/i18n';
import { PageLoading } from '../../../components/PageLoading';
import { loadUserInfo } from '../../../lib/session';
import { showToast } from '../../../lib/toast';
import { switchEvent, useEvents } from '../api';

/** The organiser's home — the event it works on, a switch between its events, its tools. */
export default function OrganiserHomePage() {
  const { t } = useTranslation();
  const { data: events, error, mutate } = useEvents();
  if (error) return <Alert severity="error">{error.message}</Alert>;
  if (!events) return <PageLoading />;
  const current = events.find((event) => event.current);
  const choose = async (id: number) => {
    await switchEvent(id);
    await Promise.all([mutate(), loadUserInfo()]);
    showToast('success', t('organiser.home.switched', { event: events.find((event) => event.id === id)?.name ?? '' }));
  };
  return (
    <Box sx={{ display: 'grid', gap: 2, maxWidth: 900 }}>
      {events.length === 0 ? (
        <Card variant="outlined">
          <CardContent>
            <Typography>{t('organiser.home.none')}</Typography>
          </CardContent>
          <CardActions>
            <Button variant="contained" component={RouterLink} to="/organiser/events/edit">
              {t('organiser.home.createFirst')}
            </Button>
          </CardActions>
        </Card>
      ) : (
        <Card variant="outlined">
          <CardContent sx={{ display: 'grid', gap: 2 }}>
            <Typography variant="overline" component="h2">
              {t('organiser.home.current')}
            </Typography>
            {current && (
              <Box>
                <Typography variant="h5" component="p">
                  {current.name}
                </Typography>
                <Typography color="text.secondary">
                  {current.code} · {formatEventTimeWithOffset(current.startsAt, { language: currentLanguage(), dateOrder: current.dateOrder }, current.utcOffsetMinutes, false)} –{' '}
                  {formatEventTimeWithOffset(current.endsAt, { language: currentLanguage(), dateOrder: current.dateOrder }, current.utcOffsetMinutes, false)} ·{' '}
                  {t('organiser.events.exhibitors')}: {current.exhibitors}
                </Typography>
              </Box>
            )}
            {events.length > 1 && (
              <TextField select label={t('organiser.home.switch')} value={current?.id ?? ''} onChange={(change) => void choose(Number(change.target.value))} sx={{ maxWidth: 420 }}>
                {events.map((event) => (
                  <MenuItem key={event.id} value={event.id}>
                    {event.name} ({event.code})
                  </MenuItem>
                ))}
              </TextField>
            )}
          </CardContent>
        </Card>
      )}
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1 }}>
        <Button variant="outlined" component={RouterLink} to="/organiser/events">
          {t('organiser.home.events')}
        </Button>
        {current && (
          <>
            <Button variant="outlined" component={RouterLink} to="/organiser/exhibitors">
              {t('organiser.home.exhibitors')}
            </Button>
            <Button variant="outlined" component={RouterLink} to="/organiser/exhibitors/import">
              {t('organiser.home.import')}
            </Button>
          </>
        )}
      </Box>
    </Box>
  );
}
