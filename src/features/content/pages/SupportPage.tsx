import { Alert, Button, Card, CardContent, Link, Paper, Stack, TextField, Typography } from '@mui/material';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Markdown } from '../../../components/Markdown';
import { PageLoading } from '../../../components/PageLoading';
import { typedApi } from '../../../lib/api';
import { useApi } from '../../../lib/use-api';
import { ApiError } from '../../../lib/api-client';
import { showToast } from '../../../lib/toast';
import { FaqList } from '../components/FaqList';

const SUBJECT_MAX = 200;
const MESSAGE_MAX = 5_000;

/** CT5: event support — contacts, the FAQ by category and a contact form (the sender gets a copy). */
export default function SupportPage() {
  const { t } = useTranslation();
  const { data, error } = useApi('GET', '/content/support');
  const [subject, setSubject] = useState('');
  const [message, setMessage] = useState('');
  const [tried, setTried] = useState(false);
  const [busy, setBusy] = useState(false);
  if (error) return <Alert severity="error">{error.message}</Alert>;
  if (!data) return <PageLoading />;
  const send = async () => {
    setTried(true);
    if (!subject.trim() || !message.trim()) return;
    setBusy(true);
    try {
      await typedApi.post('/content/support/messages', { body: { subject: subject.trim(), message: message.trim() } });
      showToast('success', t('content.support.sent'));
      setSubject('');
      setMessage('');
      setTried(false);
    } catch (failure) {
      // The API client has told the user in a toast; what was written stays for another try.
      if (!(failure instanceof ApiError)) throw failure;
    } finally {
      setBusy(false);
    }
  };
  return (
    <Stack spacing={2}>
      <section aria-label={t('content.support.contacts')}>
        <Typography variant="h6" component="h2" sx={{ mb: 1 }}>
          {t('content.support.contacts')}
        </Typography>
        <Stack direction={{ xs: 'column', md: 'row' }} spacing={1.5}>
          {data.contacts.map((contact) => (
            <Card key={contact.id} variant="outlined" sx={{ flex: 1 }}>
              <CardContent>
                <Typography component="h3" sx={{ fontWeight: 600 }}>
                  {contact.title}
                </Typography>
                <Markdown source={contact.body} />
              </CardContent>
            </Card>
          ))}
        </Stack>
        {data.supportEmail && (
          <Typography sx={{ mt: 1 }}>
            {t('content.support.email')} <Link href={`mailto:${data.supportEmail}`}>{data.supportEmail}</Link>
          </Typography>
        )}
      </section>
      {data.faq.length > 0 && (
        <section aria-label={t('screens.faq')}>
          <Typography variant="h6" component="h2">
            {t('screens.faq')}
          </Typography>
          <FaqList entries={data.faq} />
        </section>
      )}
      <Paper
        variant="outlined"
        component="form"
        aria-label={t('content.support.formTitle')}
        noValidate
        sx={{ p: 2 }}
        onSubmit={(event) => {
          event.preventDefault();
          void send();
        }}
      >
        <Typography variant="h6" component="h2" sx={{ mb: 1 }}>
          {t('content.support.formTitle')}
        </Typography>
        <Stack spacing={2}>
          <TextField
            label={t('content.support.subject')}
            value={subject}
            required
            onChange={(e) => setSubject(e.target.value)}
            slotProps={{ htmlInput: { maxLength: SUBJECT_MAX } }}
            error={tried && !subject.trim()}
            helperText={tried && !subject.trim() ? t('errors.required') : ' '}
          />
          <TextField
            label={t('content.support.message')}
            value={message}
            required
            multiline
            minRows={4}
            onChange={(e) => setMessage(e.target.value)}
            slotProps={{ htmlInput: { maxLength: MESSAGE_MAX } }}
            error={tried && !message.trim()}
            helperText={tried && !message.trim() ? t('errors.required') : t('content.support.copyNote')}
          />
          <Button type="submit" variant="contained" disabled={busy} sx={{ alignSelf: 'flex-start' }}>
            {t('content.support.send')}
          </Button>
        </Stack>
      </Paper>
    </Stack>
  );
}
