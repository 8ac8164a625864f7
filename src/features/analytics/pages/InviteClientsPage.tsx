import { useState } from 'react';
import { Alert, Box, Button, Card, CardContent, IconButton, Stack, TextField, Typography } from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import ContentCopy from '@mui/icons-material/ContentCopy';
import DeleteOutline from '@mui/icons-material/DeleteOutlined';
import { useTranslation } from 'react-i18next';
import { mutate } from 'swr';
import { INVITATION_BATCH_MAX, INVITATION_MESSAGE_MAX_LENGTH, SHARE_NETWORKS, checkRecipients, shareLinks, type RecipientProblem } from '../../../engine/analytics';
import type { InvitationRecipient } from '../../../engine/schemas/analytics';
import { typedApi } from '../../../lib/api';
import { apiKeyMatches } from '../../../lib/use-api';
import { useAccountInfo } from '../../../lib/session';
import { showToast } from '../../../lib/toast';
import { PageLoading } from '../../../components/PageLoading';
import { FormCard, useSending } from '../components/FormCard';
import { InvitationsTable } from '../components/InvitationsTable';

// LA5: invite clients by e-mail (several at once, each recorded sent or failed with a reason),
// share the event on social networks, copy the event link.

const emptyRecipient = (): InvitationRecipient => ({ name: '', email: '' });

function EmailInvitations() {
  const { t } = useTranslation();
  const [recipients, setRecipients] = useState<InvitationRecipient[]>([emptyRecipient()]);
  const [message, setMessage] = useState('');
  const { problems, failure, busy, send: sending } = useSending<RecipientProblem>();
  const problemOf = (index: number, field: 'name' | 'email') => {
    const problem = problems.find((p) => p.index === index && p.field === field);
    return problem ? t(problem.key, problem.params) : '';
  };
  const change = (index: number, field: 'name' | 'email', value: string) => setRecipients(recipients.map((r, i) => (i === index ? { ...r, [field]: value } : r)));

  const send = () =>
    sending(checkRecipients(recipients), async () => {
      const results = await typedApi.post('/invitations', {
        body: { recipients: recipients.map((r) => ({ name: r.name.trim(), email: r.email.trim() })), message },
        silent: true,
      });
      const failed = results.filter((r) => r.status === 'failed').length;
      if (failed === 0) showToast('success', t('success.emailSent'));
      else showToast('warning', t('invitations.result', { sent: results.length - failed, failed }));
      setRecipients([emptyRecipient()]);
      setMessage('');
      void mutate(apiKeyMatches('/invitations'));
    });

  return (
    <FormCard title={t('invitations.email.title')} onSubmit={() => void send()}>
      <Stack spacing={1}>
        {recipients.map((recipient, index) => (
          <Box
            key={index}
            role="group"
            aria-label={t('invitations.email.recipient', { n: index + 1 })}
            sx={{ display: 'flex', gap: 1, alignItems: 'flex-start', flexWrap: 'wrap' }}
          >
            <TextField
              size="small"
              required
              label={t('invitations.email.name')}
              value={recipient.name}
              onChange={(event) => change(index, 'name', event.target.value)}
              error={Boolean(problemOf(index, 'name'))}
              helperText={problemOf(index, 'name') || ' '}
              sx={{ flex: '1 1 200px' }}
            />
            <TextField
              size="small"
              required
              type="email"
              label={t('invitations.email.email')}
              value={recipient.email}
              onChange={(event) => change(index, 'email', event.target.value)}
              error={Boolean(problemOf(index, 'email'))}
              helperText={problemOf(index, 'email') || ' '}
              sx={{ flex: '1 1 260px' }}
            />
            {recipients.length > 1 && (
              <IconButton aria-label={t('invitations.email.removeRecipient', { n: index + 1 })} onClick={() => setRecipients(recipients.filter((_, i) => i !== index))}>
                <DeleteOutline />
              </IconButton>
            )}
          </Box>
        ))}
        {recipients.length < INVITATION_BATCH_MAX && (
          <Box>
            <Button startIcon={<AddIcon />} onClick={() => setRecipients([...recipients, emptyRecipient()])}>
              {t('invitations.email.addRecipient')}
            </Button>
          </Box>
        )}
        <TextField
          label={t('invitations.email.message')}
          value={message}
          multiline
          minRows={3}
          onChange={(event) => setMessage(event.target.value.slice(0, INVITATION_MESSAGE_MAX_LENGTH))}
          helperText={`${message.length} / ${INVITATION_MESSAGE_MAX_LENGTH}`}
        />
        {failure && <Alert severity="error">{failure}</Alert>}
        <Box>
          <Button type="submit" variant="contained" disabled={busy}>
            {t('invitations.email.send')}
          </Button>
        </Box>
      </Stack>
    </FormCard>
  );
}

function ShareLinks({ url, text, subject }: { url: string; text: string; subject: string }) {
  const { t } = useTranslation();
  const links = shareLinks(url, text, subject);
  const copy = async () => {
    try {
      if (!navigator.clipboard) throw new Error('no clipboard');
      await navigator.clipboard.writeText(url);
      showToast('success', t('success.copySuccess'));
    } catch {
      showToast('error', t('errors.copyFailed'));
    }
  };
  return (
    <Card variant="outlined" component="section" aria-label={t('invitations.share.title')}>
      <CardContent>
        <Typography variant="h6" component="h2" sx={{ mb: 2 }}>
          {t('invitations.share.title')}
        </Typography>
        <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', mb: 2 }}>
          {SHARE_NETWORKS.map((network) => (
            <Button key={network} variant="outlined" href={links[network]} target={network === 'email' ? undefined : '_blank'} rel="noopener noreferrer">
              {t(`invitations.share.${network}`)}
            </Button>
          ))}
        </Box>
        <Box sx={{ display: 'flex', gap: 1, alignItems: 'center', flexWrap: 'wrap' }}>
          <TextField size="small" label={t('invitations.share.link')} value={url} slotProps={{ htmlInput: { readOnly: true } }} sx={{ flex: '1 1 320px' }} />
          <Button startIcon={<ContentCopy />} onClick={() => void copy()}>
            {t('invitations.share.copy')}
          </Button>
        </Box>
      </CardContent>
    </Card>
  );
}

export default function InviteClientsPage() {
  const { t } = useTranslation();
  const { data: account } = useAccountInfo();
  if (!account) return <PageLoading />;
  const params = { exhibitor: account.name, event: account.exhibitName, booth: account.boothNum };
  return (
    <Stack spacing={3}>
      <Typography>{t('invitations.intro', params)}</Typography>
      <EmailInvitations />
      {account.eventUrl && <ShareLinks url={account.eventUrl} text={t('invitations.share.text', params)} subject={t('invitations.share.subject', params)} />}
      <Card variant="outlined" component="section" aria-label={t('invitations.list.title')}>
        <CardContent>
          <Typography variant="h6" component="h2" sx={{ mb: 1 }}>
            {t('invitations.list.title')}
          </Typography>
          <InvitationsTable path="/invitations" title={t('invitations.list.title')} offsetMinutes={account.utcOffsetMinutes} />
        </CardContent>
      </Card>
    </Stack>
  );
}
