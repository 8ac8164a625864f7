import { Alert, Box, Button, Chip, Paper, Table, TableBody, TableCell, TableContainer, TableHead, TableRow, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router-dom';
import { formatEventTimeWithOffset } from '../../../engine/locale-format';
import { currentLanguage } from '../../../lib/i18n';
import { PageLoading } from '../../../components/PageLoading';
import { loadUserInfo } from '../../../lib/session';
import { showToast } from '../../../lib/toast';
import { switchEvent, useEvents } from '../api';

/** Issue 9: the organisation's events; edit one, create one, choose the one to work on. */
export default function EventsPage() {
  const { t } = useTranslation();
  const { data: events, error, mutate } = useEvents();
  const choose = async (id: number, name: string) => {
    await switchEvent(id);
    await Promise.all([mutate(), loadUserInfo()]);
    showToast('success', t('organiser.home.switched', { event: name }));
  };
  return (
    <Box sx={{ display: 'grid', gap: 2 }}>
      <Box>
        <Button variant="contained" component={RouterLink} to="/organiser/events/edit">
          {t('organiser.events.new')}
        </Button>
      </Box>
      {error && <Alert severity="error">{error.message}</Alert>}
      {!events && !error && <PageLoading />}
      {events?.length === 0 && <Typography color="text.secondary">{t('organiser.events.none')}</Typography>}
      {events && events.length > 0 && (
        <TableContainer component={Paper} variant="outlined">
          <Table size="small" aria-label={t('screens.organiserEvents')}>
            <TableHead>
              <TableRow>
                <TableCell>{t('organiser.events.code')}</TableCell>
                <TableCell>{t('organiser.events.name')}</TableCell>
                <TableCell>{t('organiser.events.dates')}</TableCell>
                <TableCell align="right">{t('organiser.events.exhibitors')}</TableCell>
                <TableCell />
              </TableRow>
            </TableHead>
            <TableBody>
              {events.map((event) => (
                <TableRow key={event.id}>
                  <TableCell>{event.code}</TableCell>
                  <TableCell>
                    {event.name} {event.current && <Chip size="small" color="primary" label={t('organiser.events.current')} />}
                  </TableCell>
                  <TableCell>
                    {formatEventTimeWithOffset(event.startsAt, currentLanguage(), event.utcOffsetMinutes, false)} –{' '}
                    {formatEventTimeWithOffset(event.endsAt, currentLanguage(), event.utcOffsetMinutes, false)}
                  </TableCell>
                  <TableCell align="right">{event.exhibitors}</TableCell>
                  <TableCell sx={{ whiteSpace: 'nowrap' }}>
                    <Button size="small" component={RouterLink} to={`/organiser/events/edit?id=${event.id}`} aria-label={`${t('organiser.events.edit')} ${event.code}`}>
                      {t('organiser.events.edit')}
                    </Button>
                    {!event.current && (
                      <Button size="small" onClick={() => void choose(event.id, event.name)}>
                        {t('organiser.events.makeCurrent')}
                      </Button>
                    )}
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      )}
    </Box>
  );
}
