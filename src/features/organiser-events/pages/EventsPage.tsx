import { useState } from 'react';
import { Alert, Box, Button, Chip, Typography } from '@mui/material';
import { ResponsiveTable } from '../../../components/ResponsiveTable';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useNavigate } from 'react-router-dom';
import { formatEventTimeWithOffset } from '../../../engine/locale-format';
import { currentLanguage } from '../../../lib/i18n';
import { PageLoading } from '../../../components/PageLoading';
import { loadUserInfo } from '../../../lib/session';
import { showToast } from '../../../lib/toast';
import { switchEvent, useEvents, type EventSummary } from '../api';
import { CloneEventDialog } from '../components/CloneEventDialog';

/** The organisation's events; edit one, create one (afresh or from another), choose the one to work on. */
export default function EventsPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { data: events, error, mutate } = useEvents();
  const [cloning, setCloning] = useState<EventSummary | null>(null);
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
        <ResponsiveTable
          label={t('screens.organiserEvents')}
          size="small"
          rows={events}
          rowKey={(event) => event.id}
          columns={[
            {
              key: 'name',
              label: t('organiser.events.name'),
              primary: true,
              cell: (event) => (
                <>
                  {event.name} {event.current && <Chip size="small" color="primary" label={t('organiser.events.current')} />}
                </>
              ),
            },
            { key: 'code', label: t('organiser.events.code'), cell: (event) => event.code },
            {
              key: 'dates',
              label: t('organiser.events.dates'),
              cell: (event) => (
                <>
                  {formatEventTimeWithOffset(event.startsAt, { language: currentLanguage(), dateOrder: event.dateOrder }, event.utcOffsetMinutes, false)} –{' '}
                  {formatEventTimeWithOffset(event.endsAt, { language: currentLanguage(), dateOrder: event.dateOrder }, event.utcOffsetMinutes, false)}
                </>
              ),
            },
            { key: 'exhibitors', label: t('organiser.events.exhibitors'), cell: (event) => event.exhibitors },
            {
              key: 'actions',
              label: t('organiser.events.edit'),
              header: '',
              actions: true,
              cell: (event) => (
                <Box sx={{ whiteSpace: { sm: 'nowrap' } }}>
                  <Button size="small" component={RouterLink} to={`/organiser/events/edit?id=${event.id}`} aria-label={`${t('organiser.events.edit')} ${event.code}`}>
                    {t('organiser.events.edit')}
                  </Button>
                  <Button size="small" onClick={() => setCloning(event)} aria-label={`${t('organiser.events.cloneAction')} ${event.code}`}>
                    {t('organiser.events.cloneAction')}
                  </Button>
                  {!event.current && (
                    <Button size="small" onClick={() => void choose(event.id, event.name)}>
                      {t('organiser.events.makeCurrent')}
                    </Button>
                  )}
                </Box>
              ),
            },
          ]}
        />
      )}
      {cloning && (
        <CloneEventDialog
          source={cloning}
          onClose={() => setCloning(null)}
          onCloned={(id) => {
            setCloning(null);
            void mutate();
            navigate(`/organiser/events/edit?id=${id}`);
          }}
        />
      )}
    </Box>
  );
}
