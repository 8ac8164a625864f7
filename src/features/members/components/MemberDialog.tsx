import { useState, type FormEvent } from 'react';
import { Alert, Button, Dialog, DialogActions, DialogContent, DialogTitle, InputAdornment, MenuItem, Stack, TextField } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { ERRORS, type ErrorId } from '../../../engine/errors';
import { MEMBER_LOGIN_SEPARATOR, memberLogin } from '../../../engine/members';
import { isLanguage, LANGUAGE_OPTIONS, type Language } from '../../../engine/language';
import { typedApi } from '../../../lib/api';
import { ApiError } from '../../../lib/api-client';
import { useUserInfo } from '../../../lib/session';
import { showToast } from '../../../lib/toast';
import { leadQuotaValue, memberProblems, type MemberDraft } from '../lib/rules';
import type { Member, MemberEdit, MemberKind } from './types';

/** Which field a server refusal belongs to, so it shows beside that field. */
const FIELD_OF_ERROR: Partial<Record<string, keyof MemberDraft>> = {
  memberLoginTaken: 'account',
  memberLoginInvalid: 'account',
  emailInvalid: 'email',
  passwordTooShort: 'password',
  passwordTooLong: 'password',
  memberLeadQuotaInvalid: 'leadQuota',
};

/** Add or edit a team user / contractor login. `member` absent = add. */
export function MemberDialog({ kind, member, onClose, onSaved }: { kind: MemberKind; member?: Member; onClose: () => void; onSaved: () => void }) {
  const { t, i18n } = useTranslation();
  /** The exhibitor account its members' logins live under. */
  const owner = useUserInfo().data?.account;
  const creating = !member;
  const contractor = kind.role === 'contractor';
  const [draft, setDraft] = useState<MemberDraft>({
    account: member?.account ?? '',
    email: member?.email ?? '',
    name: member?.name ?? '',
    company: member?.company ?? '',
    password: '',
    leadQuota: member?.leadQuota === null || member?.leadQuota === undefined ? '' : String(member.leadQuota),
  });
  const [language, setLanguage] = useState<Language>(isLanguage(i18n.language) ? i18n.language : 'en');
  const [errors, setErrors] = useState<Partial<Record<keyof MemberDraft, string>>>({});
  const [formError, setFormError] = useState('');
  const [busy, setBusy] = useState(false);
  const message = (id: ErrorId | undefined) => (id ? t(ERRORS[id].message) : undefined);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const problems = memberProblems(draft, { creating, contractor });
    setErrors(Object.fromEntries(Object.entries(problems).map(([field, id]) => [field, message(id)])));
    setFormError('');
    if (Object.keys(problems).length > 0) return;
    const body: MemberEdit = {
      email: draft.email.trim(),
      ...(draft.password ? { password: draft.password } : {}),
      ...(contractor
        ? { company: draft.company.trim(), name: draft.name.trim() }
        : { leadQuota: leadQuotaValue(draft.leadQuota), ...(draft.name.trim() ? { name: draft.name.trim() } : {}) }),
    };
    setBusy(true);
    try {
      const saved = creating
        ? await typedApi.post(`/members/${kind.path}` as const, { body: { ...body, account: draft.account.trim(), language }, silent: true })
        : await typedApi.put(`/members/${kind.path}/{id}` as const, { path: { id: member.id }, body, silent: true });
      showToast('success', t(creating ? 'success.newUserAdded' : 'success.editsSaved'));
      if (saved.mailSent === false) showToast('warning', t('members.mailNotSent'));
      onSaved();
    } catch (failure) {
      if (!(failure instanceof ApiError)) throw failure;
      const field = failure.errorId ? FIELD_OF_ERROR[failure.errorId] : undefined;
      if (field) setErrors({ [field]: failure.message });
      else setFormError(failure.message);
    } finally {
      setBusy(false);
    }
  };

  const field = (
    name: keyof MemberDraft,
    label: string,
    options: { help?: string; type?: string; autoComplete?: string; disabled?: boolean; required?: boolean; numeric?: boolean; prefix?: string } = {},
  ) => (
    <TextField
      label={label}
      value={draft[name]}
      type={options.type ?? 'text'}
      autoComplete={options.autoComplete ?? 'off'}
      disabled={options.disabled}
      required={options.required}
      onChange={(event) => setDraft((current) => ({ ...current, [name]: event.target.value }))}
      error={Boolean(errors[name])}
      helperText={errors[name] ?? options.help ?? ' '}
      slotProps={{
        htmlInput: options.numeric ? { inputMode: 'numeric', maxLength: 7 } : { maxLength: name === 'email' ? 254 : name === 'password' ? 256 : 200 },
        ...(options.prefix ? { input: { startAdornment: <InputAdornment position="start">{options.prefix}</InputAdornment> } } : {}),
      }}
      fullWidth
    />
  );

  const title = creating ? t(`members.${kind.ns}.addTitle`) : t(`members.${kind.ns}.editTitle`, { account: member.account });
  return (
    <Dialog open onClose={busy ? undefined : onClose} aria-labelledby="member-dialog-title" fullWidth maxWidth="sm">
      <form onSubmit={submit} noValidate>
        <DialogTitle id="member-dialog-title">{title}</DialogTitle>
        <DialogContent>
          <Stack spacing={1} sx={{ pt: 1 }}>
            {formError && <Alert severity="error">{formError}</Alert>}
            {contractor && field('company', t('members.fields.company'), { required: true })}
            {contractor
              ? field('name', t('members.fields.contactName'), { required: true })
              : field('name', t('members.fields.teamUserName'), { help: t('members.fields.teamUserNameHelp') })}
            {creating
              ? field('account', t(contractor ? 'members.fields.loginId' : 'members.fields.account'), {
                  // The ID is chosen under the exhibitor's own account; show what they will type.
                  prefix: owner ? `${owner}${MEMBER_LOGIN_SEPARATOR}` : undefined,
                  help: owner && draft.account.trim() ? t('members.fields.accountLoginHelp', { login: memberLogin(owner, draft.account.trim()) }) : t('members.fields.accountHelp'),
                  required: true,
                })
              : field('account', t(contractor ? 'members.fields.loginId' : 'members.fields.account'), { help: t('members.fields.accountHelp'), disabled: true, required: true })}
            {field('email', t('members.fields.email'), { type: 'email', required: true })}
            {creating
              ? field('password', t('members.fields.password'), {
                  type: 'password',
                  autoComplete: 'new-password',
                  help: `${t('members.fields.passwordHelp')} ${t('auth.passwordRules')}`,
                })
              : field('password', t('members.fields.newPassword'), { type: 'password', autoComplete: 'new-password', help: t('members.fields.newPasswordHelp') })}
            {!contractor && field('leadQuota', t('members.fields.leadQuota'), { help: t('members.fields.leadQuotaHelp'), numeric: true })}
            {creating && (
              <TextField select label={t('members.fields.mailLanguage')} value={language} onChange={(event) => setLanguage(event.target.value as Language)} helperText=" ">
                {LANGUAGE_OPTIONS.map((option) => (
                  <MenuItem key={option.code} value={option.code}>
                    {option.label}
                  </MenuItem>
                ))}
              </TextField>
            )}
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose} disabled={busy}>
            {t('members.cancel')}
          </Button>
          <Button type="submit" variant="contained" disabled={busy}>
            {t('members.save')}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
