import { useState, type FormEvent } from 'react';
import { Alert, Avatar, Button, Grid, Paper, Stack, Table, TableBody, TableCell, TableRow, TextField, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { ERRORS, type ErrorId } from '../../../engine/errors';
import { passwordChangeProblems } from '../../../engine/password-policy';
import type { PasswordChange } from '../../../engine/schemas/password-change';
import { typedApi } from '../../../lib/api';
import { ApiError } from '../../../lib/api-client';
import { useAccountInfo, useUserInfo } from '../../../lib/session';
import { showToast } from '../../../lib/toast';
import { UtcTime } from '../../../components/UtcTime';

type Field = keyof PasswordChange;

function PasswordForm() {
  const { t } = useTranslation();
  const [values, setValues] = useState<Required<PasswordChange>>({ oldPassword: '', newPassword: '', confirmPassword: '' });
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [busy, setBusy] = useState(false);
  const message = (id: ErrorId | undefined) => (id ? t(ERRORS[id].message) : undefined);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const problems = passwordChangeProblems(values);
    setErrors({ oldPassword: message(problems.oldPassword), newPassword: message(problems.newPassword), confirmPassword: message(problems.confirmPassword) });
    if (Object.keys(problems).length > 0) return;
    setBusy(true);
    try {
      await typedApi.put('/user/password', { body: values, silent: true });
      setValues({ oldPassword: '', newPassword: '', confirmPassword: '' });
      showToast('success', t('success.passwordChanged'));
    } catch (failure) {
      if (failure instanceof ApiError) {
        const fields = (failure.data as { fields?: Partial<Record<Field, ErrorId>> } | null)?.fields;
        if (fields) setErrors({ oldPassword: message(fields.oldPassword), newPassword: message(fields.newPassword), confirmPassword: message(fields.confirmPassword) });
        else showToast('error', failure.message);
      }
    } finally {
      setBusy(false);
    }
  };

  const field = (name: Field, label: string, autoComplete: string) => (
    <TextField
      label={label}
      type="password"
      autoComplete={autoComplete}
      value={values[name]}
      onChange={(event) => setValues((current) => ({ ...current, [name]: event.target.value }))}
      error={Boolean(errors[name])}
      helperText={errors[name] ?? (name === 'newPassword' ? t('auth.passwordRules') : ' ')}
      required
    />
  );

  return (
    <Stack component="form" spacing={2} onSubmit={submit} noValidate aria-labelledby="password-title">
      <Typography id="password-title" variant="h6" component="h2">
        {t('account.changePassword')}
      </Typography>
      {field('oldPassword', t('account.oldPassword'), 'current-password')}
      {field('newPassword', t('account.newPassword'), 'new-password')}
      {field('confirmPassword', t('account.confirmPassword'), 'new-password')}
      <Button type="submit" variant="contained" disabled={busy} sx={{ alignSelf: 'flex-start' }}>
        {t('account.save')}
      </Button>
    </Stack>
  );
}

/** H2, H3: account details with deadlines, and the password change. */
export default function MyAccountPage() {
  const { t } = useTranslation();
  const { data: user } = useUserInfo();
  const { data: account, error } = useAccountInfo();
  const offset = account?.utcOffsetMinutes ?? 0;
  const rows: Array<[string, React.ReactNode]> = account
    ? [
        [t('account.accountId'), user?.account],
        [t('account.name'), user?.name],
        [t('account.email'), user?.email],
        [t('account.exhibitor'), account.name],
        [t('account.legalName'), account.legalName],
        [t('account.boothNumber'), account.boothNum],
        [t('account.exhibitionName'), account.exhibitionName],
        [t('account.exhibitionId'), account.exhibitionId],
      ]
    : [];
  // H2: the deadlines forms.yaml declares, as account info sends them.
  const deadlines: Array<[string, string | null]> = (account?.deadlines ?? []).map((deadline) => [t(deadline.title), deadline.dueAt]);
  return (
    <Grid container spacing={3}>
      <Grid size={{ xs: 12, md: 7 }}>
        <Paper variant="outlined" sx={{ p: 3 }} component="section" aria-labelledby="details-title">
          <Stack direction="row" spacing={2} sx={{ mb: 2, alignItems: 'center' }}>
            {account?.companyLog && <Avatar src={account.companyLog} alt={t('account.companyLogo')} variant="rounded" sx={{ width: 64, height: 64 }} />}
            <Typography id="details-title" variant="h6" component="h2">
              {t('account.details')}
            </Typography>
          </Stack>
          {error && <Alert severity="error">{String(error.message ?? error)}</Alert>}
          {/* Both sheets are key/value pairs (a row header and its value, two columns a phone shows whole), not lists of rows: no ResponsiveTable. */}
          <Table size="small">
            <TableBody>
              {rows.map(([label, value]) => (
                <TableRow key={label}>
                  <TableCell component="th" scope="row" sx={{ width: '40%', fontWeight: 600 }}>
                    {label}
                  </TableCell>
                  <TableCell>{value}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
          <Typography variant="subtitle1" component="h3" sx={{ mt: 3 }}>
            {t('account.deadlines')}
          </Typography>
          <Table size="small">
            <TableBody>
              {deadlines.map(([label, value]) => (
                <TableRow key={label}>
                  <TableCell component="th" scope="row" sx={{ width: '40%', fontWeight: 600 }}>
                    {label}
                  </TableCell>
                  <TableCell>{value ? <UtcTime value={value} offsetMinutes={offset} /> : t('account.noDeadline')}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </Paper>
      </Grid>
      <Grid size={{ xs: 12, md: 5 }}>
        <Paper variant="outlined" sx={{ p: 3 }}>
          <PasswordForm />
        </Paper>
      </Grid>
    </Grid>
  );
}
