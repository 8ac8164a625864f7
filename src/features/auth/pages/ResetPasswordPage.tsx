import { useState, type FormEvent } from 'react';
import { Alert, Button, Card, CardContent, Link, Stack, TextField, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useSearchParams } from 'react-router-dom';
import useSWR from 'swr';
import { passwordLengthProblem } from '../../../engine/password-policy';
import { ERRORS } from '../../../engine/errors';
import { api } from '../../../lib/api';
import { ApiError } from '../../../lib/api-client';
import { PageLoading } from '../../../components/PageLoading';

/** S2: the page a reset e-mail links to; sets a new password once. */
export default function ResetPasswordPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const check = useSWR(token ? ['reset', token] : null, () =>
    api.get<{ account: string }>('/auth/password/reset', { params: { token }, auth: false, silent: true }),
  );
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [errors, setErrors] = useState<{ password?: string; confirm?: string; form?: string }>({});
  const [done, setDone] = useState(false);
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const lengthProblem = passwordLengthProblem(password);
    const next = {
      password: lengthProblem ? t(ERRORS[lengthProblem].message) : undefined,
      confirm: confirm !== password ? t(ERRORS.passwordMismatch.message) : undefined,
    };
    setErrors(next);
    if (next.password || next.confirm) return;
    setBusy(true);
    try {
      await api.post('/auth/password/reset', { token, password, confirmPassword: confirm }, { auth: false, silent: true });
      setDone(true);
    } catch (failure) {
      setErrors({ form: failure instanceof ApiError ? failure.message : String(failure) });
    } finally {
      setBusy(false);
    }
  };

  let content;
  if (!token || check.error) content = <Alert severity="error">{t('errors.resetLinkInvalid')}</Alert>;
  else if (!check.data) content = <PageLoading />;
  else if (done) content = <Alert severity="success">{t('success.passwordReset')}</Alert>;
  else
    content = (
      <Stack component="form" spacing={2} onSubmit={submit} noValidate>
        <Typography>{t('auth.resetFor', { account: check.data.account })}</Typography>
        {errors.form && <Alert severity="error">{errors.form}</Alert>}
        <TextField
          label={t('auth.newPassword')}
          type="password"
          autoComplete="new-password"
          value={password}
          onChange={(event) => setPassword(event.target.value)}
          error={Boolean(errors.password)}
          helperText={errors.password ?? t('auth.passwordRules')}
          required
        />
        <TextField
          label={t('auth.confirmPassword')}
          type="password"
          autoComplete="new-password"
          value={confirm}
          onChange={(event) => setConfirm(event.target.value)}
          error={Boolean(errors.confirm)}
          helperText={errors.confirm}
          required
        />
        <Button type="submit" variant="contained" disabled={busy}>
          {t('auth.setPassword')}
        </Button>
      </Stack>
    );

  return (
    <Card sx={{ width: '100%', maxWidth: 420 }}>
      <CardContent sx={{ p: 4 }}>
        <Stack spacing={2}>
          <Typography variant="h5" component="h1">
            {t('screens.resetPassword')}
          </Typography>
          {content}
          <Link component={RouterLink} to="/login" underline="hover">
            {t('auth.backToLogin')}
          </Link>
        </Stack>
      </CardContent>
    </Card>
  );
}
