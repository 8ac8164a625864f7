import type { ReactNode } from 'react';
import { Box, Card, CardActionArea, CardContent, Grid, Link, List, ListItem, ListItemText, Paper, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { Navigate, Link as RouterLink } from 'react-router-dom';
import { canAccess, findScreen } from '../../../engine/catalogue';
import type { ScreenId } from '../../../generated/screens';
import { useCatalogue } from '../../../lib/catalogue';
import { PageLoading } from '../../../components/PageLoading';
import type { ApiData } from '../../../lib/typed-api';
import { useApi } from '../../../lib/use-api';
import { useAccountInfo, useUserInfo } from '../../../lib/session';
import { UtcTime } from '../../../components/UtcTime';

/**
 * R5: the Home sections and the screen each one opens. `anchor` opens a form at its section: the
 * form's UI schema names the section that answers it (`ui:options.anchor`).
 */
const SECTIONS: Array<{ key: string; screen: ScreenId; anchor?: string }> = [
  { key: 'myProfile', screen: 'myAccount' },
  { key: 'companyProfile', screen: 'promotionProfile', anchor: 'companyProfile' },
  { key: 'brands', screen: 'productHighlights' },
  { key: 'products', screen: 'productHighlights' },
  { key: 'distribution', screen: 'promotionProfile', anchor: 'distribution' },
  { key: 'goals', screen: 'promotionProfile', anchor: 'goals' },
  { key: 'team', screen: 'teamUser' },
  { key: 'leads', screen: 'leads' },
  { key: 'scanner', screen: 'leadScanner' },
  { key: 'reports', screen: 'leadReport' },
  { key: 'events', screen: 'eventInfo' },
];

/** A titled box of short entries: what is due, the latest announcements, tips, deadlines. */
function ListSection({ id, title, sx, children }: { id: string; title: string; sx?: { height?: string; mb?: number }; children: ReactNode }) {
  return (
    <Paper variant="outlined" sx={{ p: 2, ...sx }} component="section" aria-labelledby={id}>
      <Typography id={id} variant="h6" component="h3">
        {title}
      </Typography>
      <List dense>{children}</List>
    </Paper>
  );
}

/** What is due next, in deadline order — forms not submitted yet, manuals to acknowledge. */
/** What the checklist reads, each answer undefined while it loads (or when the user's modules do not hold it). */
function useChecklistData(modules: string[], role: Parameters<typeof canAccess>[2]) {
  const catalogue = useCatalogue();
  const may = (id: ScreenId) => {
    const screen = findScreen(catalogue, id);
    return screen ? canAccess(screen, modules, role) : false;
  };
  const forms = useApi('GET', '/forms', undefined, { enabled: may('orderForms') });
  const manuals = useApi('GET', '/content/manuals', undefined, { enabled: may('manuals') });
  const latest = useApi('GET', '/content/announcements', { query: { page: 1, limit: 10 } }, { enabled: may('announcements') });
  // Loading: asked for and neither answered nor failed.
  const loading = [forms, manuals, latest].some((answer) => answer.isLoading);
  return { forms: forms.data, manuals: manuals.data, latest: latest.data, loading };
}

function Checklist({
  forms,
  manuals,
  latest,
  offsetMinutes,
}: {
  forms?: ApiData<'GET', '/forms'>;
  manuals?: ApiData<'GET', '/content/manuals'>;
  latest?: ApiData<'GET', '/content/announcements'>;
  offsetMinutes: number;
}) {
  const { t } = useTranslation();
  const catalogue = useCatalogue();
  const now = Date.now();
  const open = (deadline: string | null) => deadline === null || new Date(deadline).getTime() >= now;
  const due = [
    ...(forms ?? [])
      .filter((form) => ['notStarted', 'draft', 'rejected'].includes(form.status) && open(form.deadline) && form.screen)
      .map((form) => ({
        key: `form-${form.id}`,
        title: t(form.title),
        what: t(form.mandatory ? 'home.due.mandatoryForm' : 'home.due.optionalForm'),
        deadline: form.deadline,
        to: findScreen(catalogue, form.screen as ScreenId)?.path ?? '/orderForms',
      })),
    ...(manuals ?? [])
      .filter((manual) => manual.ackRequired && manual.status !== 'acknowledged' && open(manual.deadline))
      .map((manual) => ({ key: `manual-${manual.id}`, title: manual.title, what: t('home.due.manual'), deadline: manual.deadline, to: `/manuals/detail?id=${manual.id}` })),
  ].sort((a, b) => (a.deadline ? new Date(a.deadline).getTime() : Infinity) - (b.deadline ? new Date(b.deadline).getTime() : Infinity));
  const announcements = (latest?.items ?? []).slice(0, 3);
  if (due.length === 0 && announcements.length === 0) return null;
  return (
    <Grid container spacing={2} sx={{ mb: 3 }}>
      {due.length > 0 && (
        <Grid size={{ xs: 12, md: announcements.length > 0 ? 7 : 12 }}>
          <ListSection id="due-title" title={t('home.due.title')} sx={{ height: '100%' }}>
            {due.slice(0, 8).map((item) => (
              <ListItem key={item.key} disableGutters>
                <ListItemText
                  primary={
                    <Link component={RouterLink} to={item.to}>
                      {item.title}
                    </Link>
                  }
                  secondary={
                    <>
                      {item.what}
                      {item.deadline ? (
                        <>
                          {' · '}
                          {t('home.due.by')} <UtcTime value={item.deadline} offsetMinutes={offsetMinutes} />
                        </>
                      ) : null}
                    </>
                  }
                />
              </ListItem>
            ))}
          </ListSection>
        </Grid>
      )}
      {announcements.length > 0 && (
        <Grid size={{ xs: 12, md: due.length > 0 ? 5 : 12 }}>
          <ListSection id="latest-title" title={t('home.due.announcements')} sx={{ height: '100%' }}>
            {announcements.map((item) => (
              <ListItem key={item.id} disableGutters>
                <ListItemText
                  primary={
                    <Link component={RouterLink} to={`/announcements/detail?id=${item.id}`} sx={{ fontWeight: item.read ? 400 : 700 }}>
                      {item.title}
                    </Link>
                  }
                  secondary={
                    <>
                      {item.read ? '' : `${t('content.announcements.new')} · `}
                      <UtcTime value={item.publishedAt} offsetMinutes={offsetMinutes} />
                    </>
                  }
                />
              </ListItem>
            ))}
          </ListSection>
        </Grid>
      )}
    </Grid>
  );
}

/** R5: welcome title and tips instead of the menu, what is due next, the participation sections and deadlines. */
export default function HomePage() {
  const { t, i18n } = useTranslation();
  const catalogue = useCatalogue();
  const { data: user } = useUserInfo();
  const { data: account } = useAccountInfo();
  const { data: tips, isLoading: tipsLoading } = useApi('GET', '/system/content/list', { query: { kind: 'tip' } }, { vary: [i18n.language] });
  const modules = user?.displayedModule ?? [];
  const checklist = useChecklistData(modules, user?.role);
  const now = Date.now();
  // An organiser's Home is its console's overview, not the exhibitor's sections.
  if (user?.role === 'organiser') return <Navigate to="/organiser" replace />;
  // Drawn once what it shows has arrived: sections appearing one by one would push the page
  // down under the reader's eyes (Lighthouse measured a layout shift of 0.6).
  if (!user || !account || tipsLoading || checklist.loading) return <PageLoading />;

  return (
    <Box>
      <Typography variant="h4" component="h2" gutterBottom>
        {t('home.welcome', { name: user?.name ?? '' })}
      </Typography>
      <Typography color="text.secondary" gutterBottom>
        {t('home.intro', { event: account?.exhibitName ?? '' })}
      </Typography>
      <Box sx={{ mt: 2 }}>
        <Checklist forms={checklist.forms} manuals={checklist.manuals} latest={checklist.latest} offsetMinutes={account.utcOffsetMinutes ?? 0} />
      </Box>
      <Grid container spacing={3} sx={{ mt: 1 }}>
        <Grid size={{ xs: 12, md: 8 }}>
          <Typography variant="h6" component="h3" gutterBottom>
            {t('home.sections')}
          </Typography>
          <Grid container spacing={2} component="ul" sx={{ listStyle: 'none', p: 0, m: 0 }}>
            {SECTIONS.map(({ key, screen: screenId, anchor }) => {
              const screen = findScreen(catalogue, screenId);
              const allowed = screen ? canAccess(screen, modules, user?.role) : false;
              return (
                <Grid key={key} size={{ xs: 12, sm: 6 }} component="li">
                  <Card variant="outlined" sx={{ height: '100%', opacity: allowed ? 1 : 0.55 }}>
                    <CardActionArea component={RouterLink} to={allowed && screen ? `${screen.path}${anchor ? `#${anchor}` : ''}` : '#'} disabled={!allowed} sx={{ height: '100%' }}>
                      <CardContent>
                        <Typography variant="subtitle1" component="h4" sx={{ fontWeight: 600 }}>
                          {t(`home.section.${key}`)}
                        </Typography>
                        <Typography variant="body2" color="text.secondary">
                          {t(`home.sectionText.${key}`)}
                        </Typography>
                      </CardContent>
                    </CardActionArea>
                  </Card>
                </Grid>
              );
            })}
          </Grid>
        </Grid>
        <Grid size={{ xs: 12, md: 4 }}>
          <ListSection id="tips-title" title={t('home.tips')} sx={{ mb: 3 }}>
            {(tips ?? []).map((tip) => (
              <ListItem key={tip.id} disableGutters>
                <ListItemText primary={tip.title} secondary={tip.body} />
              </ListItem>
            ))}
          </ListSection>
          <ListSection id="deadlines-title" title={t('home.deadlines')}>
            {(account?.deadlines ?? []).map(({ name, title, dueAt: value }) => {
              const passed = value ? new Date(value).getTime() < now : false;
              return (
                <ListItem key={name} disableGutters>
                  <ListItemText
                    primary={t(title)}
                    secondary={
                      value ? (
                        <>
                          <UtcTime value={value} offsetMinutes={account?.utcOffsetMinutes ?? 0} />
                          {passed ? ` · ${t('home.deadlinePassed')}` : ''}
                        </>
                      ) : (
                        t('account.noDeadline')
                      )
                    }
                  />
                </ListItem>
              );
            })}
          </ListSection>
        </Grid>
      </Grid>
    </Box>
  );
}
