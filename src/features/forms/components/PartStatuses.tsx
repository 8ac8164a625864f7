import { Chip, Stack, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import type { PartSummary } from '../lib/payload';
import { STATUS_COLOR } from './status-colour';

/** P1 F4: each part of a shared form with its own status (the exhibitor's booth, the contractor's part). */
export function PartStatuses({ parts }: { parts: PartSummary[] }) {
  const { t } = useTranslation();
  return (
    <Stack component="ul" spacing={0.5} sx={{ m: 0, p: 0, listStyle: 'none' }}>
      {parts.map((part) => (
        <Stack component="li" key={part.id} direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
          <Typography variant="body2">{t(part.title)}:</Typography>
          <Chip size="small" color={STATUS_COLOR[part.status]} label={t(`formRuntime.status.${part.status}`)} />
          {part.changesNotSubmitted && (
            <Typography variant="body2" color="warning.main">
              {t('formRuntime.list.changesNotSubmitted')}
            </Typography>
          )}
        </Stack>
      ))}
    </Stack>
  );
}
