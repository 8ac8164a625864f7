import { useEffect, useState, type FormEvent } from 'react';
import { Alert, Box, Button, Card, CardContent, Link, Stack, TextField, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router-dom';
import useSWR from 'swr';
import { api } from '../../../lib/api';
import { ApiError } from '../../../lib/api-client';
import { clearUserInfo } from '../../../lib/session';
import { logoutReasonStore, tokenStore } from '../../../lib/storage';
import { LanguagePicker } from '../components/LanguagePicker';

interface Branding {
  exhibitCode: string;
  exhibitName: string;
  eventLog: string;
}

/** A redirect target inside the app only, never another site. */
function safeRedirect(value: string | null): string {
  return value && value.startsWith('/') && !value.startsWith('//') ? value : '/home';
}

function ForgotPasswordForm({ onBack }: { onBack: () => void }) {
  const { t } = useTranslation();
  const [email, setEmail] = useState('');
  const [error, setError] = useState('');
  const [sent, setSent] = useState(false);
  const [busy, setBusy] = useState(false);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!email.trim()) return setError(t('auth.emailRequired'));
    setBusy(true);
    setError('');
    try {
      await api.post('/auth/password/forgot', { email: email.trim() }, { auth: false, silent: true });
      setSent(true);
    } catch (failure) {
      setError(failure instanceof ApiError ? failure.message : String(failure));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Stack component="form" spacing={2} onSubmit={submit} noValidate aria-labelledby="forgot-title">
      <Typography id="forgot-title" variant="h6" component="h2">
        {t('auth.forgotTitle')}
      </Typography>
      {sent ? (
        <Alert severity="success">{t('auth.resetSent')}</Alert>
      ) : (
        <>
          <Typography variant="body2">{t('auth.forgotIntro')}</Typography>
          <TextField
            label={t('auth.email')}
            type="email"
            autoComplete="email"
            value={email}
            onChange={(event) => setEmail(event.target.value)}
            error={Boolean(error)}
            helperText={error || ' '}
            required
          />
          <Button type="submit" variant="contained" disabled={busy}>
            {t('auth.sendResetLink')}
          </Button>
        </>
      )}
      <Link component="button" type="button" onClick={onBack} underline="hover">
        {t('auth.backToLogin')}
      </Link>
    </Stack>
  );
}

/** S1, S2: log in with account ID and password, or ask for a reset link by e-mail. */
export default function LoginPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const exhibitCode = params.get('exhibitCode');
  const { data: branding } = useSWR<Branding>(exhibitCode ? ['branding', exhibitCode] : null, () =>
    api.get<Branding>('/system/project/exhibirotCodeOrNum', { params: { exhibitCode }, auth: false, silent: true }),
  );
  const [account, setAccount] = useState('');
  const [password, setPassword] = useState('');
  const [fieldErrors, setFieldErrors] = useState<{ account?: string; password?: string }>({});
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const [forgot, setForgot] = useState(false);
  const [notice] = useState(() => {
    const reason = logoutReasonStore.get();
    logoutReasonStore.clear();
    return reason === 'sessionInactive' ? t('errors.sessionInactive') : reason === 'invalidSession' ? t('errors.invalidSession') : '';
  });

  useEffect(() => {
    document.title = branding ? `${t('screens.login')} · ${branding.exhibitName}` : `${t('screens.login')} · ${t('app.name')}`;
  }, [branding, t]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const errors = { account: account.trim() ? undefined : t('auth.accountRequired'), password: password ? undefined : t('auth.passwordRequired') };
    setFieldErrors(errors);
    if (errors.account || errors.password) return;
    setBusy(true);
    setError('');
    try {
      const result = await api.post<{ token: string }>('/auth/login', { account: account.trim(), password }, { auth: false, silent: true });
      tokenStore.set(result.token);
      await clearUserInfo();
      navigate(safeRedirect(params.get('redirect')), { replace: true });
    } catch (failure) {
      setError(failure instanceof ApiError ? failure.message : String(failure));
      setBusy(false);
    }
  };

  return (
    <Card sx={{ width: '100%', maxWidth: 420 }}>
      <CardContent sx={{ p: 4 }}>
        <Box sx={{ display: 'flex', justifyContent: 'space-between', alignItems: 'center', mb: 2 }}>
          {branding?.eventLog ? <img src={branding.eventLog} alt={branding.exhibitName} style={{ height: 48 }} /> : <span />}
          <LanguagePicker />
        </Box>
        <Typography variant="h5" component="h1" gutterBottom>
          {branding ? t('auth.welcomeTo', { event: branding.exhibitName }) : t('app.name')}
        </Typography>
        {notice && (
          <Alert severity="warning" sx={{ mb: 2 }}>
            {notice}
          </Alert>
        )}
        {forgot ? (
          <ForgotPasswordForm onBack={() => setForgot(false)} />
        ) : (
          <Stack component="form" spacing={2} onSubmit={submit} noValidate>
            {error && <Alert severity="error">{error}</Alert>}
            <TextField
              label={t('auth.account')}
              autoComplete="username"
              value={account}
              onChange={(event) => setAccount(event.target.value)}
              error={Boolean(fieldErrors.account)}
              helperText={fieldErrors.account}
              required
              autoFocus
            />
            <TextField
              label={t('auth.password')}
              type="password"
              autoComplete="current-password"
              value={password}
              onChange={(event) => setPassword(event.target.value)}
              error={Boolean(fieldErrors.password)}
              helperText={fieldErrors.password}
              required
            />
            <Button type="submit" variant="contained" size="large" disabled={busy}>
              {busy ? t('auth.loggingIn') : t('auth.login')}
            </Button>
            <Link component="button" type="button" onClick={() => setForgot(true)} underline="hover">
              {t('auth.forgotPassword')}
            </Link>
          </Stack>
        )}
      </CardContent>
    </Card>
  );
}
