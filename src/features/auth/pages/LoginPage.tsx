import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { typedApi } from '../../../lib/api';
import { ApiError } from '../../../lib/api-client';
import { useApi } from '../../../lib/use-api';
import { clearUserInfo } from '../../../lib/session';
import { logoutReasonStore, tokenStore } from '../../../lib/storage';
import { Notice, PublicCard } from '../../../components/plain/PublicCard';
import { TextInput } from '../../../components/plain/TextInput';
import { LanguagePicker } from '../components/LanguagePicker';

// Plain React and CSS on purpose: this is the first page most people load, so it stays small
// (see the bundle budget in `npm run bench`).

/** A redirect target inside the app only, never another site. */
function safeRedirect(value: string | null): string {
  return value?.startsWith('/') && !value.startsWith('//') ? value : '/home';
}

function failureText(failure: unknown): string {
  return failure instanceof ApiError ? failure.message : String(failure);
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
      await typedApi.post('/auth/password/forgot', { body: { email: email.trim() }, auth: false, silent: true });
      setSent(true);
    } catch (failure) {
      setError(failureText(failure));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form className="plain-form" onSubmit={submit} noValidate aria-labelledby="forgot-title">
      <h2 id="forgot-title">{t('auth.forgotTitle')}</h2>
      {sent ? (
        <Notice kind="success">{t('auth.resetSent')}</Notice>
      ) : (
        <>
          <p>{t('auth.forgotIntro')}</p>
          <TextInput label={t('auth.email')} type="email" autoComplete="email" value={email} onChange={setEmail} error={error || undefined} required />
          <button type="submit" className="plain-button" disabled={busy}>
            {t('auth.sendResetLink')}
          </button>
        </>
      )}
      <button type="button" className="plain-link" onClick={onBack}>
        {t('auth.backToLogin')}
      </button>
    </form>
  );
}

/** S1, S2: log in with account ID and password, or ask for a reset link by e-mail. */
export default function LoginPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const exhibitCode = params.get('exhibitCode');
  const { data: branding } = useApi(
    'GET',
    '/system/project/exhibirotCodeOrNum',
    { query: { exhibitCode: exhibitCode ?? '' }, auth: false, silent: true },
    { enabled: Boolean(exhibitCode) },
  );
  const [account, setAccount] = useState('');
  const [password, setPassword] = useState('');
  const [fieldErrors, setFieldErrors] = useState<{ account?: string; password?: string }>({});
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const [forgot, setForgot] = useState(false);
  // Read while rendering, cleared once shown: a render React throws away and redoes must still
  // find the reason.
  const [notice] = useState(() => {
    const reason = logoutReasonStore.get();
    return reason === 'sessionInactive' ? t('errors.sessionInactive') : reason === 'invalidSession' ? t('errors.invalidSession') : '';
  });
  useEffect(() => logoutReasonStore.clear(), []);

  useEffect(() => {
    document.title = `${t('screens.login')} · ${branding?.exhibitName ?? t('app.name')}`;
  }, [branding, t]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const errors = { account: account.trim() ? undefined : t('auth.accountRequired'), password: password ? undefined : t('auth.passwordRequired') };
    setFieldErrors(errors);
    if (errors.account || errors.password) return;
    setBusy(true);
    setError('');
    try {
      const result = await typedApi.post('/auth/login', { body: { account: account.trim(), password }, auth: false, silent: true });
      tokenStore.set(result.token);
      await clearUserInfo();
      navigate(safeRedirect(params.get('redirect')), { replace: true });
    } catch (failure) {
      setError(failureText(failure));
      setBusy(false);
    }
  };

  return (
    <PublicCard
      labelledBy="login-title"
      top={
        <>
          {branding?.eventLog ? <img src={branding.eventLog} alt={branding.exhibitName} /> : <span />}
          <LanguagePicker />
        </>
      }
    >
      <h1 id="login-title">{branding ? t('auth.welcomeTo', { event: branding.exhibitName }) : t('app.name')}</h1>
      {notice && <Notice kind="warning">{notice}</Notice>}
      {forgot ? (
        <ForgotPasswordForm onBack={() => setForgot(false)} />
      ) : (
        <form className="plain-form" onSubmit={submit} noValidate>
          {error && <Notice kind="error">{error}</Notice>}
          <TextInput label={t('auth.account')} autoComplete="username" value={account} onChange={setAccount} error={fieldErrors.account} required autoFocus />
          <TextInput label={t('auth.password')} type="password" autoComplete="current-password" value={password} onChange={setPassword} error={fieldErrors.password} required />
          <button type="submit" className="plain-button" disabled={busy}>
            {busy ? t('auth.loggingIn') : t('auth.login')}
          </button>
          <button type="button" className="plain-link" onClick={() => setForgot(true)}>
            {t('auth.forgotPassword')}
          </button>
        </form>
      )}
    </PublicCard>
  );
}
