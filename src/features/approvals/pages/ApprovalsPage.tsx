import { useState } from 'react';
import { Alert, Box, Button, Card, CardContent, Stack, Tab, Tabs, TextField, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import useSWR from 'swr';
import { api } from '../../../lib/api';
import { ApiError } from '../../../lib/api-client';
import { showToast } from '../../../lib/toast';
import { useAccountInfo } from '../../../lib/session';
import { PageLoading } from '../../../components/PageLoading';
import { UtcTime } from '../../../components/UtcTime';

type Status = 'pending' | 'approved' | 'rejected';

interface Submission {
  id: number;
  formId: string;
  formCode: string;
  formTitle: string;
  exhibitor: string;
  boothNum: string;
  submittedAt: string;
  status: Status;
  comment: string | null;
  data: Record<string, unknown>;
}

/** What the organiser decides on, in one line: the extra badges, the booth height, the guests. */
function Summary({ submission }: { submission: Submission }) {
  const { t } = useTranslation();
  const data = submission.data;
  const lines: string[] = [];
  if (Array.isArray(data.badges)) {
    const extra = data.badges.filter((b) => (b as { extra?: boolean }).extra === true).length;
    lines.push(t('approvals.badges', { count: data.badges.length, extra }));
  }
  if (typeof data.boothHeight === 'number') lines.push(t('approvals.boothHeight', { height: data.boothHeight }));
  if (Array.isArray(data.invitations)) {
    lines.push(t('approvals.guests', { names: data.invitations.map((g) => (g as { name?: string }).name ?? '').filter(Boolean).join(', ') }));
  }
  return (
    <>
      {lines.map((line) => (
        <Typography key={line} variant="body2">
          {line}
        </Typography>
      ))}
    </>
  );
}

function Decision({ submission, onDecided }: { submission: Submission; onDecided: () => void }) {
  const { t } = useTranslation();
  const [comment, setComment] = useState('');
  const [error, setError] = useState('');
  const decide = async (decision: 'approved' | 'rejected') => {
    try {
      await api.post(`/approvals/${submission.id}`, { decision, comment }, { silent: true });
      showToast('success', t(decision === 'approved' ? 'approvals.approvedToast' : 'approvals.rejectedToast'));
      onDecided();
    } catch (failure) {
      setError(failure instanceof ApiError ? failure.message : String(failure));
    }
  };
  return (
    <Stack spacing={1} sx={{ mt: 2 }}>
      <TextField
        label={t('approvals.comment')}
        value={comment}
        onChange={(event) => setComment(event.target.value)}
        multiline
        minRows={2}
        error={Boolean(error)}
        helperText={error || ' '}
      />
      <Box sx={{ display: 'flex', gap: 1 }}>
        <Button variant="contained" onClick={() => void decide('approved')}>
          {t('approvals.approve')}
        </Button>
        <Button variant="outlined" color="error" onClick={() => void decide('rejected')}>
          {t('approvals.reject')}
        </Button>
      </Box>
    </Stack>
  );
}

/** O1: what waits for the organiser (VIP lists, high booths, extra badges), and what was decided. */
export default function ApprovalsPage() {
  const { t } = useTranslation();
  const { data: account } = useAccountInfo();
  const [status, setStatus] = useState<Status>('pending');
  const { data, error, mutate } = useSWR<Submission[]>(['/approvals', status], () => api.get<Submission[]>('/approvals', { params: { status } }));
  return (
    <Box>
      <Tabs value={status} onChange={(_, value) => setStatus(value)} aria-label={t('screens.approvals')} sx={{ mb: 2 }}>
        {(['pending', 'approved', 'rejected'] as const).map((name) => (
          <Tab key={name} value={name} label={t(`approvals.tab.${name}`)} />
        ))}
      </Tabs>
      {error && <Alert severity="error">{error.message}</Alert>}
      {!data && !error && <PageLoading />}
      {data?.length === 0 && <Typography color="text.secondary">{t('approvals.none')}</Typography>}
      <Stack spacing={2} component="ul" sx={{ listStyle: 'none', p: 0 }}>
        {data?.map((submission) => (
          <Card key={submission.id} variant="outlined" component="li" aria-label={`${submission.exhibitor} ${t(submission.formTitle)}`}>
            <CardContent>
              <Typography variant="h6" component="h2">
                {t(submission.formTitle)} · {submission.exhibitor}
              </Typography>
              <Typography variant="body2" color="text.secondary">
                {t('approvals.booth', { booth: submission.boothNum })} · <UtcTime value={submission.submittedAt} offsetMinutes={account?.utcOffsetMinutes ?? 0} />
              </Typography>
              <Summary submission={submission} />
              {submission.comment && <Typography variant="body2">{t('approvals.commentShown', { comment: submission.comment })}</Typography>}
              {submission.status === 'pending' && <Decision submission={submission} onDecided={() => void mutate()} />}
            </CardContent>
          </Card>
        ))}
      </Stack>
    </Box>
  );
}
