import { Alert, Box, Button, MenuItem, Paper, Stack, TextField, Typography } from '@mui/material';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { PageLoading } from '../../../components/PageLoading';
import { typedApi } from '../../../lib/api';
import { useApi } from '../../../lib/use-api';
import type { ApiData } from '../../../lib/typed-api';
import { ApiError } from '../../../lib/api-client';
import { formatEventDay, type DateLocale } from '../../../engine/locale-format';
import { useDateLocale } from '../../../lib/date-locale';
import { showToast } from '../../../lib/toast';
import { CONSENT_BASES, CONSENT_TEXT_MAX } from '../../../engine/lead-consent';
import { LANGUAGE_OPTIONS } from '../../../engine/language';

// The organiser sets how long exhibitors keep leads after the show and the consent visitors gave
// at registration, and exports, withdraws the consent of, or erases one visitor's data across
// every exhibitor of its events on request.

type Settings = ApiData<'GET', '/organiser/privacy'>;
type ConsentSettings = ApiData<'GET', '/organiser/privacy/consent'>;

/** A day in the user's language. */
const dayIn = (dates: DateLocale) => (iso: string | null) => (iso ? formatEventDay(iso.slice(0, 10), dates) : '—');
const messageOf = (failure: unknown) => (failure instanceof Error ? failure.message : String(failure));

/** A section of the page: its title, what it does, and its fields. */
function SettingsSection({ title, explain, children }: { title: string; explain: string; children: ReactNode }) {
  return (
    <Paper sx={{ p: 2 }}>
      <Typography variant="h6" component="h2" gutterBottom>
        {title}
      </Typography>
      <Typography variant="body2" sx={{ mb: 2 }}>
        {explain}
      </Typography>
      {children}
    </Paper>
  );
}

function Retention({ settings, onSaved }: { settings: Settings; onSaved: () => void }) {
  const { t } = useTranslation();
  const day = dayIn(useDateLocale());
  const [days, setDays] = useState(settings.retentionDays === null ? '' : String(settings.retentionDays));
  const [problem, setProblem] = useState('');
  const save = async () => {
    setProblem('');
    const value = days.trim() === '' ? null : Number(days);
    if (value !== null && (!Number.isInteger(value) || value < 1 || value > 3650)) {
      setProblem(t('privacy.retention.invalid'));
      return;
    }
    try {
      await typedApi.put('/organiser/privacy', { body: { retentionDays: value }, silent: true });
      showToast('success', t('privacy.retention.saved'));
      onSaved();
    } catch (failure) {
      setProblem(messageOf(failure));
    }
  };
  return (
    <SettingsSection title={t('privacy.retention.title')} explain={t('privacy.retention.explain', { event: settings.event, end: day(settings.showEndsAt) })}>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: { sm: 'center' } }}>
        <TextField
          label={t('privacy.retention.days')}
          value={days}
          onChange={(event) => setDays(event.target.value)}
          slotProps={{ htmlInput: { inputMode: 'numeric' } }}
          disabled={settings.erasedAt !== null}
        />
        <Button variant="contained" onClick={() => void save()} disabled={settings.erasedAt !== null}>
          {t('privacy.save')}
        </Button>
      </Stack>
      {problem && (
        <Alert severity="error" sx={{ mt: 2 }}>
          {problem}
        </Alert>
      )}
      <Typography variant="body2" sx={{ mt: 2 }}>
        {settings.erasedAt
          ? t('privacy.retention.erased', { date: day(settings.erasedAt) })
          : settings.eraseAt
            ? t('privacy.retention.eraseAt', { date: day(settings.eraseAt) })
            : t('privacy.retention.notSet')}
      </Typography>
    </SettingsSection>
  );
}

function Consent({ settings, onSaved }: { settings: ConsentSettings; onSaved: () => void }) {
  const { t } = useTranslation();
  const [texts, setTexts] = useState<Record<string, string>>(settings.texts);
  const [basis, setBasis] = useState<string>(settings.basis ?? '');
  const [problem, setProblem] = useState('');
  const save = async () => {
    setProblem('');
    try {
      await typedApi.put('/organiser/privacy/consent', {
        body: { texts, basis: basis === '' ? null : (basis as (typeof CONSENT_BASES)[number]) },
        silent: true,
      });
      showToast('success', t('privacy.consent.saved'));
      onSaved();
    } catch (failure) {
      setProblem(messageOf(failure));
    }
  };
  return (
    <SettingsSection title={t('privacy.consent.title')} explain={t('privacy.consent.explain')}>
      <Stack spacing={2}>
        {LANGUAGE_OPTIONS.map(({ code: language, label }) => (
          <TextField
            key={language}
            multiline
            minRows={2}
            label={t('privacy.consent.text', { language: label })}
            value={texts[language] ?? ''}
            onChange={(event) => setTexts({ ...texts, [language]: event.target.value })}
            slotProps={{ htmlInput: { maxLength: CONSENT_TEXT_MAX } }}
          />
        ))}
        <TextField select label={t('privacy.consent.basis')} value={basis} onChange={(event) => setBasis(event.target.value)} sx={{ maxWidth: 320 }}>
          <MenuItem value="">{t('privacy.consent.basisNone')}</MenuItem>
          {CONSENT_BASES.map((code) => (
            <MenuItem key={code} value={code}>
              {t(`privacy.consent.basisLabel.${code}`)}
            </MenuItem>
          ))}
        </TextField>
        <Box>
          <Button variant="contained" onClick={() => void save()}>
            {t('privacy.consent.save')}
          </Button>
        </Box>
      </Stack>
      {problem && (
        <Alert severity="error" sx={{ mt: 2 }}>
          {problem}
        </Alert>
      )}
    </SettingsSection>
  );
}

function VisitorRequest() {
  const { t } = useTranslation();
  const [badgeCode, setBadgeCode] = useState('');
  const [email, setEmail] = useState('');
  const [outcome, setOutcome] = useState<{ severity: 'success' | 'error'; text: string } | null>(null);
  const who = () => ({ ...(badgeCode.trim() ? { badgeCode: badgeCode.trim() } : {}), ...(email.trim() ? { email: email.trim() } : {}) });
  const exportData = async () => {
    setOutcome(null);
    try {
      const data = await typedApi.post('/organiser/privacy/visitor/export', { body: who(), silent: true });
      const blob = new Blob([JSON.stringify(data, null, 2)], { type: 'application/json' });
      const href = URL.createObjectURL(blob);
      const link = document.createElement('a');
      link.href = href;
      link.download = 'visitor-data.json';
      link.click();
      setTimeout(() => URL.revokeObjectURL(href), 10_000);
      setOutcome({
        severity: 'success',
        text: [
          t('privacy.visitor.exported', { count: data.leads.length }),
          t('privacy.consent.recipients', { exports: data.recipients.exports.length, deliveries: data.recipients.deliveries.length }),
          // Exports made before they recorded their visitors: said plainly, never counted as none.
          ...(data.recipients.unrecordedExports.length > 0
            ? [
                t('privacy.consent.unrecorded', {
                  count: data.recipients.unrecordedExports.length,
                  files: data.recipients.unrecordedExports.map((made) => `${made.exhibitor}: ${made.fileName}`).join(', '),
                }),
              ]
            : []),
        ].join(' '),
      });
    } catch (failure) {
      setOutcome({ severity: 'error', text: failure instanceof ApiError ? failure.message : messageOf(failure) });
    }
  };
  const withdraw = async () => {
    if (!window.confirm(t('privacy.consent.withdrawConfirm'))) return;
    setOutcome(null);
    try {
      const counts = await typedApi.post('/organiser/privacy/visitor/withdraw', { body: who(), silent: true });
      setOutcome({ severity: 'success', text: t('privacy.consent.withdrawn', counts) });
    } catch (failure) {
      setOutcome({ severity: 'error', text: messageOf(failure) });
    }
  };
  const erase = async () => {
    if (!window.confirm(t('privacy.visitor.confirm'))) return;
    setOutcome(null);
    try {
      const counts = await typedApi.post('/organiser/privacy/visitor/erase', { body: who(), silent: true });
      setOutcome({ severity: 'success', text: t('privacy.visitor.erased', counts) });
    } catch (failure) {
      setOutcome({ severity: 'error', text: messageOf(failure) });
    }
  };
  const empty = !badgeCode.trim() && !email.trim();
  return (
    <Paper sx={{ p: 2 }}>
      <Typography variant="h6" component="h2" gutterBottom>
        {t('privacy.visitor.title')}
      </Typography>
      <Typography variant="body2" sx={{ mb: 2 }}>
        {t('privacy.visitor.explain')}
      </Typography>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
        <TextField label={t('privacy.visitor.badgeCode')} value={badgeCode} onChange={(event) => setBadgeCode(event.target.value)} />
        <TextField label={t('privacy.visitor.email')} type="email" value={email} onChange={(event) => setEmail(event.target.value)} />
      </Stack>
      <Stack direction="row" spacing={2} sx={{ mt: 2 }}>
        <Button variant="outlined" disabled={empty} onClick={() => void exportData()}>
          {t('privacy.visitor.export')}
        </Button>
        <Button variant="outlined" color="warning" disabled={empty} onClick={() => void withdraw()}>
          {t('privacy.consent.withdraw')}
        </Button>
        <Button variant="contained" color="error" disabled={empty} onClick={() => void erase()}>
          {t('privacy.visitor.erase')}
        </Button>
      </Stack>
      {outcome && (
        <Alert severity={outcome.severity} sx={{ mt: 2 }} role="status">
          {outcome.text}
        </Alert>
      )}
    </Paper>
  );
}

export default function OrganiserPrivacyPage() {
  const { t } = useTranslation();
  const { data, mutate } = useApi('GET', '/organiser/privacy');
  const consent = useApi('GET', '/organiser/privacy/consent');
  if (!data || !consent.data) return <PageLoading />;
  return (
    <Box>
      <Typography variant="h5" component="h1" gutterBottom>
        {t('screens.organiserPrivacy')}
      </Typography>
      <Stack spacing={3}>
        <Retention key={`${data.retentionDays}`} settings={data} onSaved={() => void mutate()} />
        <Consent key={JSON.stringify(consent.data)} settings={consent.data} onSaved={() => void consent.mutate()} />
        <VisitorRequest />
      </Stack>
    </Box>
  );
}
