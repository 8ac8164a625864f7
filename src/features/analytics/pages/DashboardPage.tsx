import { useState, type ReactNode } from 'react';
import { Alert, Box, Button, Card, CardContent, Grid, MenuItem, Stack, TextField, Typography } from '@mui/material';
import Download from '@mui/icons-material/Download';
import { useTranslation } from 'react-i18next';
import { NONE_KEY, OTHER_KEY } from '../../../engine/analytics';
import type { CountByKey, TrendGranularity } from '../../../engine/schemas/analytics';
import { countryName, formatEventDay, formatNumber, prepareFormatters } from '../../../engine/locale-format';
import { currentLanguage, startingLanguage } from '../../../lib/i18n';
import { useDateLocale } from '../../../lib/date-locale';
import { whenIdle } from '../../../lib/idle';
import { typedApi } from '../../../lib/api';
import { useApi } from '../../../lib/use-api';
import type { ApiData } from '../../../lib/typed-api';
import { useAccountInfo, useUserInfo } from '../../../lib/session';
import { usePaging } from '../../../components/Pagination';
import { ResponsiveTable } from '../../../components/ResponsiveTable';
import { PageLoading } from '../../../components/PageLoading';
import { UtcTime } from '../../../components/UtcTime';
import { ChartCard, ChartsCode } from '../components/ChartCard';
import { InTurn, TakingTurns } from '../../../components/InTurn';
import type { Slice } from '../components/charts';
import { InvitationsTable } from '../components/InvitationsTable';
import { ToggleChoice } from '../components/ToggleChoice';

// LA1-LA4 (and the download list and invitations): the lead dashboard of the participation,
// from one API call. Every chart has its data as a table (toggle; visually hidden otherwise).

// Nivo (about half of this page's code) loads after the figures and tables show
// (ChartsCode); the charts are drawn one by one as they come into view (ChartCard).

// This code loads at start beside the frame's (app/warm-up.ts); the formatters the page
// needs are made in an idle moment while the frame and the figures are on their way, instead of
// in the page's first render with its figures (one task: a component renders whole).
whenIdle(() => prepareFormatters(startingLanguage()));

type Dimension = 'country' | 'user' | 'type' | 'temperature';
/** The dashboard's figures, as GET /analytics/dashboard answers them. */
type Dashboard = ApiData<'GET', '/analytics/dashboard'>;

/** Figures as the user's language writes numbers. */
const figure = (value: number) => formatNumber(value, currentLanguage());

function SummaryCards({ summary }: { summary: Dashboard['summary'] }) {
  const { t } = useTranslation();
  const cards: Array<[string, number]> = [
    ['total', summary.total],
    ['today', summary.today],
    ['hot', summary.hot],
    ['qualified', summary.qualified],
    ['unqualified', summary.unqualified],
    ['unknownBadges', summary.unknownBadges],
    ['activeTeamUsers', summary.activeTeamUsers],
  ];
  return (
    <Box component="section" aria-label={t('dashboard.summary.title')}>
      <Typography variant="h6" component="h2" sx={{ mb: 1 }}>
        {t('dashboard.summary.title')}
      </Typography>
      <Box component="dl" sx={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(150px, 1fr))', gap: 2, m: 0 }}>
        {cards.map(([name, value]) => (
          // A card is the dl's group (a div holding one dt and its dd): a further wrapper between
          // them breaks the list for screen readers.
          <Card key={name} variant="outlined" sx={{ p: 2, display: 'flex', flexDirection: 'column-reverse' }}>
            <Typography component="dt" variant="body2" color="text.secondary">
              {t(`dashboard.summary.${name}`)}
            </Typography>
            <Typography component="dd" variant="h4" sx={{ m: 0 }}>
              {figure(value)}
            </Typography>
          </Card>
        ))}
      </Box>
    </Box>
  );
}

/** A titled card section of the dashboard (its heading names the region). */
function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Card variant="outlined" component="section" aria-label={title}>
      <CardContent>
        <Typography variant="h6" component="h2" sx={{ mb: 1 }}>
          {title}
        </Typography>
        {children}
      </CardContent>
    </Card>
  );
}

function DownloadList({ offsetMinutes }: { offsetMinutes: number }) {
  const { t } = useTranslation();
  const { setPaging, query } = usePaging(10);
  const { data, error } = useApi('GET', '/analytics/exports', { query });
  const title = t('dashboard.downloads.title');
  return (
    <Section title={title}>
      {error && <Alert severity="error">{error.message}</Alert>}
      {!data && !error && <PageLoading />}
      {data && !(data.total > 0) && <Typography color="text.secondary">{t('dashboard.downloads.none')}</Typography>}
      {data && data.total > 0 && Array.isArray(data.items) && (
        <ResponsiveTable
          label={title}
          size="small"
          outlined={false}
          rows={data.items}
          rowKey={(row) => row.id}
          paging={{ total: data.total, page: data.page, limit: data.limit, onChange: setPaging }}
          columns={[
            { key: 'fileName', label: t('dashboard.downloads.fileName'), primary: true, cellSx: {}, cell: (row) => row.fileName },
            { key: 'time', label: t('dashboard.downloads.time'), cell: (row) => <UtcTime value={row.createdAt} offsetMinutes={offsetMinutes} /> },
            { key: 'user', label: t('dashboard.downloads.user'), cell: (row) => row.user },
            {
              key: 'download',
              label: t('dashboard.downloads.download'),
              header: '',
              actions: true,
              cell: (row) => (
                <Button
                  size="small"
                  startIcon={<Download />}
                  aria-label={`${t('dashboard.downloads.download')} ${row.fileName}`}
                  onClick={() => void typedApi.download('/leads/exports/{id}/file', row.fileName, { path: { id: row.id } })}
                >
                  {t('dashboard.downloads.download')}
                </Button>
              ),
            },
          ]}
        />
      )}
    </Section>
  );
}

export default function DashboardPage() {
  const { t } = useTranslation();
  const dates = useDateLocale();
  const { data: user } = useUserInfo();
  const { data: account } = useAccountInfo();
  const [granularity, setGranularity] = useState<TrendGranularity>('day');
  // Hourly: one show day; empty = the server's choice (today during the show, else the latest day with leads).
  const [day, setDay] = useState('');
  const query = granularity === 'hour' && day ? { granularity, day } : { granularity };
  const { data, error } = useApi(
    'GET',
    '/analytics/dashboard',
    { query },
    {
      keepPreviousData: true,
      refreshInterval: 60_000,
    },
  );
  const isExhibitor = user?.role === 'exhibitor';
  const offsetMinutes = data?.offsetMinutes ?? account?.utcOffsetMinutes ?? 0;

  if (error && !data) return <Alert severity="error">{error.message}</Alert>;
  if (!data) return <PageLoading />;
  // An answer without figures (an older server) reads as "no leads yet" rather than breaking.
  if (typeof data !== 'object' || !data.summary || !data.trend) return <Alert severity="info">{t('dashboard.empty')}</Alert>;

  const labelOf = (dimension: Dimension, key: string): string => {
    if (key === OTHER_KEY) return t('dashboard.breakdown.other');
    if (key === NONE_KEY) return t('dashboard.breakdown.notSet');
    if (dimension === 'type') return t(`leads.type.${key}`);
    if (dimension === 'temperature') return t(`leads.temperature.${key}`);
    // Countries are stored as ISO codes and named in the user's language (an old name as it is).
    return countryName(key, currentLanguage());
  };
  const slicesOf = (dimension: Dimension, counts: CountByKey[]): Slice[] => counts.map((c) => ({ id: c.key, label: labelOf(dimension, c.key), value: c.leads }));
  const tableOf = (slices: Slice[]) => ({ columns: [t('dashboard.breakdown.key'), t('dashboard.breakdown.leads')], rows: slices.map((s) => [s.label, s.value]) });
  const empty = data.summary.total === 0;
  // Trend days come as event days ("YYYY-MM-DD"; hours "HH:00"): shown in the user's language.
  const day$ = (label: string) => formatEventDay(label, dates);

  const countries = slicesOf('country', data.countries);
  const users = data.users.map((u) => ({ id: String(u.userId), label: u.name, value: u.leads }));
  const types = slicesOf('type', data.types);
  const temperatures = slicesOf('temperature', data.temperatures);
  const breakdowns = [
    { title: t('dashboard.breakdown.country'), slices: countries },
    { title: t('dashboard.breakdown.user'), slices: users },
    { title: t('dashboard.breakdown.type'), slices: types },
    { title: t('dashboard.breakdown.temperature'), slices: temperatures, pie: true },
  ];
  const trendTitle = t('dashboard.trend.title');

  // The sections below the trend are drawn one by one after the figures, each in a
  // commit of its own (InTurn), then the charts as they come into view (ChartCard).
  return (
    <TakingTurns>
      <Stack spacing={3}>
        <Typography variant="body2" color="text.secondary">
          {t('dashboard.eventTime', { offset: data.offsetLabel, today: day$(data.today) })}
        </Typography>
        <SummaryCards summary={data.summary} />
        {empty ? (
          <Alert severity="info">{t('dashboard.empty')}</Alert>
        ) : (
          <ChartsCode>
            <ChartCard
              title={trendTitle}
              height={320}
              table={{
                columns: [t('dashboard.trend.time', { offset: data.offsetLabel }), t('dashboard.trend.leads')],
                rows: data.trend.points.map((p) => [data.trend.day ? `${day$(data.trend.day)} ${p.label}` : day$(p.label), p.leads]),
              }}
              actions={
                <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
                  {granularity === 'hour' && (data.trend.showDays?.length ?? 0) > 0 && (
                    <TextField
                      select
                      size="small"
                      label={t('dashboard.trend.showDay')}
                      value={data.trend.day ?? ''}
                      onChange={(event) => setDay(event.target.value)}
                      sx={{ minWidth: 150 }}
                    >
                      {[...new Set([...(data.trend.showDays ?? []), ...(data.trend.day ? [data.trend.day] : [])])].map((showDay) => (
                        <MenuItem key={showDay} value={showDay}>
                          {day$(showDay)}
                        </MenuItem>
                      ))}
                    </TextField>
                  )}
                  <ToggleChoice
                    label={t('dashboard.trend.granularity')}
                    options={[
                      { value: 'day', label: t('dashboard.trend.daily') },
                      { value: 'hour', label: t('dashboard.trend.hourly') },
                    ]}
                    value={granularity}
                    onChange={setGranularity}
                  />
                </Stack>
              }
              chart={(charts) => (
                <charts.TrendChart points={data.trend.points.map((p) => ({ ...p, label: day$(p.label) }))} leadsLabel={t('dashboard.trend.leads')} formatValue={figure} />
              )}
            />
            <InTurn>
              <Grid container spacing={2}>
                {breakdowns.map(({ title, slices, pie }) => (
                  <Grid key={title} size={{ xs: 12, md: 6 }}>
                    <ChartCard
                      title={title}
                      table={tableOf(slices)}
                      chart={(charts) => (pie ? <charts.PieBreakdown slices={slices} formatValue={figure} /> : <charts.BarBreakdown slices={slices} formatValue={figure} />)}
                    />
                  </Grid>
                ))}
              </Grid>
            </InTurn>
            <InTurn>
              <Section title={t('dashboard.leaderboard.title')}>
                <ResponsiveTable
                  label={t('dashboard.leaderboard.title')}
                  size="small"
                  outlined={false}
                  rows={data.leaderboard}
                  rowKey={(row) => row.userId}
                  columns={[
                    { key: 'rank', label: t('dashboard.leaderboard.rank'), cell: (row) => row.rank },
                    { key: 'name', label: t('dashboard.leaderboard.name'), primary: true, cellSx: {}, cell: (row) => row.name },
                    { key: 'leads', label: t('dashboard.leaderboard.leads'), align: 'right', cell: (row) => figure(row.leads) },
                  ]}
                />
              </Section>
            </InTurn>
          </ChartsCode>
        )}
        {isExhibitor && (
          <InTurn>
            <DownloadList offsetMinutes={offsetMinutes} />
          </InTurn>
        )}
        {isExhibitor && (
          <InTurn>
            <Section title={t('dashboard.invitations.title')}>
              <InvitationsTable path="/analytics/invitations" title={t('dashboard.invitations.title')} offsetMinutes={offsetMinutes} />
            </Section>
          </InTurn>
        )}
      </Stack>
    </TakingTurns>
  );
}
