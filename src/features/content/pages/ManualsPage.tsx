import { Alert, Chip, Stack, ToggleButton, ToggleButtonGroup, Typography } from '@mui/material';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LinkCardSection } from '../../../components/LinkCardSection';
import { PageLoading } from '../../../components/PageLoading';
import { UtcTime } from '../../../components/UtcTime';
import { useApi } from '../../../lib/use-api';
import type { ApiData } from '../../../lib/typed-api';
import { useAccountInfo } from '../../../lib/session';
import { ManualStatusChip } from '../components/ManualStatusChip';

export type ManualSummary = ApiData<'GET', '/content/manuals'>[number];

const FILTERS = ['all', 'toView', 'viewed', 'acknowledged'] as const;

function ManualGroup({ title, manuals, offsetMinutes }: { title: string; manuals: ManualSummary[]; offsetMinutes: number }) {
  const { t } = useTranslation();
  if (manuals.length === 0) return null;
  return (
    <LinkCardSection title={title} items={manuals} itemKey={(manual) => manual.id} to={(manual) => `/manuals/detail?id=${manual.id}`} spacing={1.5}>
      {(manual) => (
        <>
          <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap', rowGap: 1 }}>
            <Typography component="h3" sx={{ fontWeight: 600, flex: '1 1 12rem' }}>
              {manual.title}
            </Typography>
            {manual.ackRequired && <Chip size="small" label={t('content.manuals.ackRequired')} />}
            <ManualStatusChip status={manual.status} />
          </Stack>
          {manual.description && (
            <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5 }}>
              {manual.description}
            </Typography>
          )}
          {manual.deadline && (
            <Typography variant="body2" sx={{ mt: 0.5 }}>
              {t('content.manuals.deadline')}: <UtcTime value={manual.deadline} offsetMinutes={offsetMinutes} />
            </Typography>
          )}
        </>
      )}
    </LinkCardSection>
  );
}

/** CT1: mandatory then optional manuals with their status, deadline and a status filter. */
export default function ManualsPage() {
  const { t } = useTranslation();
  const [filter, setFilter] = useState<(typeof FILTERS)[number]>('all');
  const { data: account } = useAccountInfo();
  const { data, error } = useApi('GET', '/content/manuals', { query: filter === 'all' ? {} : { status: filter } });
  const offset = account?.utcOffsetMinutes ?? 0;
  return (
    <>
      <ToggleButtonGroup
        exclusive
        size="small"
        value={filter}
        onChange={(_, value) => value && setFilter(value)}
        aria-label={t('content.manuals.filter')}
        sx={{ flexWrap: 'wrap' }}
      >
        {FILTERS.map((value) => (
          <ToggleButton key={value} value={value}>
            {value === 'all' ? t('content.manuals.all') : t(`content.manuals.status.${value}`)}
          </ToggleButton>
        ))}
      </ToggleButtonGroup>
      {error && <Alert severity="error">{error.message}</Alert>}
      {!data && !error && <PageLoading />}
      {data && data.length === 0 && (
        <Typography sx={{ mt: 2 }} color="text.secondary">
          {t('content.manuals.none')}
        </Typography>
      )}
      {data && (
        <>
          <ManualGroup title={t('menu.mandatoryForms')} manuals={data.filter((m) => m.mandatory)} offsetMinutes={offset} />
          <ManualGroup title={t('menu.optionalManuals')} manuals={data.filter((m) => !m.mandatory)} offsetMinutes={offset} />
        </>
      )}
    </>
  );
}
