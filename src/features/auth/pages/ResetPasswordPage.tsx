import { useEffect, useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router-dom';
import { ERRORS } from '../../../engine/errors';
import { passwordLengthProblem } from '../../../engine/password-policy';
import { typedApi } from '../../../lib/api';
import { ApiError } from '../../../lib/api-client';
import { useApi } from '../../../lib/use-api';
import { Notice, PublicCard, Spinner } from '../../../components/plain/PublicCard';
import { TextInput } from '../../../components/plain/TextInput';

/** S2: the page a reset e-mail links to; sets a new password once. */
export default function ResetPasswordPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  // The link is checked once, when the page opens. Checking it again (on focus, on reconnect)
  // after the password was set would find it used and replace the success with "invalid".
  const check = useApi(
    'GET',
    '/auth/password/reset',
    { query: { token }, auth: false, silent: true },
    {
      enabled: token !== '',
      revalidateOnFocus: false,
      revalidateOnReconnect: false,
      revalidateIfStale: false,
    },
  );
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [errors, setErrors] = useState<{ password?: string; confirm?: string; form?: string }>({});
  const [done, setDone] = useState(false);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    document.title = `${t('screens.resetPassword')} · ${t('app.name')}`;
  }, [t]);

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
      await typedApi.post('/auth/password/reset', { body: { token, password, confirmPassword: confirm }, auth: false, silent: true });
      setDone(true);
    } catch (failure) {
      setErrors({ form: failure instanceof ApiError ? failure.message : String(failure) });
    } finally {
      setBusy(false);
    }
  };

  // Only the server's "invalid link" answer means the link is bad; a failed connection says so.
  const linkRefused = check.error instanceof ApiError && check.error.errorId === 'resetLinkInvalid';
  let content: ReactNode;
  if (done) content = <Notice kind="success">{t('success.passwordReset')}</Notice>;
  else if (!token || linkRefused) content = <Notice kind="error">{t('errors.resetLinkInvalid')}</Notice>;
  else if (check.error) content = <Notice kind="error">{check.error instanceof ApiError ? check.error.message : t('errors.network')}</Notice>;
  else if (!check.data) content = <Spinner label={t('app.loading')} />;
  else
    content = (
      <form className="plain-form" onSubmit={submit} noValidate>
        <p>{t('auth.resetFor', { account: check.data.account })}</p>
        {errors.form && <Notice kind="error">{errors.form}</Notice>}
        <TextInput
          label={t('auth.newPassword')}
          type="password"
          autoComplete="new-password"
          value={password}
          onChange={setPassword}
          error={errors.password}
          help={t('auth.passwordRules')}
          required
        />
        <TextInput label={t('auth.confirmPassword')} type="password" autoComplete="new-password" value={confirm} onChange={setConfirm} error={errors.confirm} required />
        <button type="submit" className="plain-button" disabled={busy}>
          {t('auth.setPassword')}
        </button>
      </form>
    );

  return (
    <PublicCard labelledBy="reset-title">
      <h1 id="reset-title">{t('screens.resetPassword')}</h1>
      {content}
      <p style={{ marginTop: 16 }}>
        <Link to="/login" className="plain-link">
          {t('auth.backToLogin')}
        </Link>
      </p>
    </PublicCard>
  );
}
