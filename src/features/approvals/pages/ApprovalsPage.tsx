import { useEffect, useState } from 'react';
import { Alert, Box, Button, Card, CardContent, Checkbox, Chip, FormControlLabel, Stack, Tab, Tabs, TextField, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { typedApi } from '../../../lib/api';
import { useApi } from '../../../lib/use-api';
import type { ApiData } from '../../../lib/typed-api';
import { ApiError } from '../../../lib/api-client';
import { showToast } from '../../../lib/toast';
import { useAccountInfo } from '../../../lib/session';
import { PageLoading } from '../../../components/PageLoading';
import { UtcTime } from '../../../components/UtcTime';

/** One decision the organiser sees, as the approvals route answers it. */
type Submission = ApiData<'GET', '/approvals'>[number];
type Status = Submission['status'];

const IMAGE_TYPES = new Set(['jpeg', 'jpg', 'png', 'gif', 'webp']);

/** The booth design (or any declared file): a preview the organiser sees at once, and the download. */
function FilePreview({ file }: { file: { id: string; name: string; type: string } }) {
  const { t } = useTranslation();
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    let objectUrl: string | null = null;
    let cancelled = false;
    typedApi
      .get('/uploads/{id}', { path: { id: file.id }, responseType: 'blob', silent: true })
      .then((blob) => {
        if (cancelled) return;
        objectUrl = URL.createObjectURL(blob);
        setUrl(objectUrl);
      })
      .catch(() => undefined);
    return () => {
      cancelled = true;
      if (objectUrl) URL.revokeObjectURL(objectUrl);
    };
  }, [file.id]);
  const title = t('approvals.previewOf', { name: file.name });
  return (
    <Box sx={{ my: 1 }}>
      {url && IMAGE_TYPES.has(file.type) && <Box component="img" src={url} alt={title} sx={{ maxWidth: '100%', maxHeight: 320, display: 'block' }} />}
      {url && file.type === 'pdf' && <Box component="iframe" src={url} title={title} sx={{ width: '100%', height: 320, border: 1, borderColor: 'divider' }} />}
      <Button size="small" onClick={() => void typedApi.download('/uploads/{id}', file.name, { path: { id: file.id } })}>
        {t('approvals.download', { name: file.name })}
      </Button>
    </Box>
  );
}

/** What the organiser decides on, as forms.yaml declares it (approvalSummary). */
function Summary({ submission }: { submission: Submission }) {
  const { t } = useTranslation();
  return (
    <Box sx={{ mt: 1 }}>
      {/* Why it waits (above the event's limit) and the fee due, in the organiser's language. */}
      {submission.notes.map((note) => (
        <Typography key={note} variant="body2" sx={{ mb: 1, fontWeight: 600 }}>
          {note}
        </Typography>
      ))}
      {submission.summary.map((entry) => (
        <Box key={entry.field} sx={{ mb: 1 }}>
          <Typography variant="subtitle2" component="h3">
            {t(entry.title)}
          </Typography>
          {entry.kind === 'value' && <Typography variant="body2">{entry.label ? t(entry.label) : String(entry.value ?? '')}</Typography>}
          {entry.kind === 'file' && (entry.file ? <FilePreview file={entry.file} /> : <Typography variant="body2">{t('approvals.noFile')}</Typography>)}
          {entry.kind === 'items' && (
            <Box component="ul" sx={{ m: 0, pl: 3 }}>
              {entry.items?.map((item, index) => (
                <Typography key={index} component="li" variant="body2" sx={{ fontWeight: item.flagged ? 600 : undefined }}>
                  {item.text}
                  {item.flagged && <Chip size="small" color="warning" label={t('approvals.extra')} sx={{ ml: 1 }} />}
                </Typography>
              ))}
            </Box>
          )}
        </Box>
      ))}
    </Box>
  );
}

function Decision({ submission, onDecided }: { submission: Submission; onDecided: () => void }) {
  const { t } = useTranslation();
  const [comment, setComment] = useState('');
  const [error, setError] = useState('');
  const decide = async (decision: 'approved' | 'rejected') => {
    try {
      await typedApi.post('/approvals/{id}', { path: { id: submission.id }, body: { decision, comment }, silent: true });
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
  const { data, error, mutate } = useApi('GET', '/approvals', { query: { status } });
  const [selected, setSelected] = useState<number[]>([]);
  const chosen = selected.filter((id) => data?.some((s) => s.id === id && s.status === 'pending'));
  const approveSelected = async () => {
    const result = await typedApi.post('/approvals/bulk', { body: { ids: chosen } });
    showToast('success', t('approvals.bulkApproved', { count: result.approved }));
    setSelected([]);
    void mutate();
  };
  return (
    <Box>
      <Tabs value={status} onChange={(_, value) => setStatus(value)} aria-label={t('screens.approvals')} sx={{ mb: 2 }}>
        {(['pending', 'approved', 'rejected'] as const).map((name) => (
          <Tab key={name} value={name} label={t(`approvals.tab.${name}`)} />
        ))}
      </Tabs>
      {status === 'pending' && chosen.length > 0 && (
        <Button variant="contained" sx={{ mb: 2 }} onClick={() => void approveSelected()}>
          {t('approvals.approveSelected', { count: chosen.length })}
        </Button>
      )}
      {error && <Alert severity="error">{error.message}</Alert>}
      {!data && !error && <PageLoading />}
      {data?.length === 0 && <Typography color="text.secondary">{t('approvals.none')}</Typography>}
      <Stack spacing={2} component="ul" sx={{ listStyle: 'none', p: 0 }}>
        {data?.map((submission) => (
          <Card key={submission.id} variant="outlined" component="li" aria-label={`${submission.exhibitor} ${t(submission.formTitle)}`}>
            <CardContent>
              {submission.status === 'pending' && (
                <FormControlLabel
                  sx={{ float: 'right', mr: 0 }}
                  control={
                    <Checkbox
                      checked={selected.includes(submission.id)}
                      onChange={(event) => setSelected((current) => (event.target.checked ? [...current, submission.id] : current.filter((id) => id !== submission.id)))}
                    />
                  }
                  label={t('approvals.select')}
                />
              )}
              <Typography variant="h6" component="h2">
                {t(submission.formTitle)} · {submission.exhibitor}
              </Typography>
              {submission.part && <Typography variant="subtitle2">{t('approvals.partDecided', { part: t(submission.part.title) })}</Typography>}
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
