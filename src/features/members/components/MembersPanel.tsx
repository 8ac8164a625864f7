import { useState } from 'react';
import { Alert, Box, Button, Chip, Stack, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { PAGINATION } from '../../../engine/constants';
import { isLanguage } from '../../../engine/language';
import { typedApi } from '../../../lib/api';
import { useApi } from '../../../lib/use-api';
import { pageSize } from '../../../engine/pagination';
import { ApiError } from '../../../lib/api-client';
import { useAccountInfo, useUserInfo } from '../../../lib/session';
import { showToast } from '../../../lib/toast';
import { LimitTips } from '../../../components/LimitTips';
import { PageLoading } from '../../../components/PageLoading';
import { Pagination } from '../../../components/Pagination';
import { ResponsiveTable, type ResponsiveColumn } from '../../../components/ResponsiveTable';
import { SUPPORT_EMAIL } from '../../../engine/constants';
import { MemberDialog } from './MemberDialog';
import type { Member, MemberKind } from './types';

/**
 * The exhibitor's team users (LD5) or contractor logins (P1): a page of them with status, the
 * add button while the quota allows (limit tips instead at the limit, P4), edit, activate /
 * deactivate and a new activation e-mail.
 */
export function MembersPanel({ kind }: { kind: MemberKind }) {
  const { t, i18n } = useTranslation();
  const { data: user } = useUserInfo();
  const { data: account } = useAccountInfo();
  const [paging, setPaging] = useState({ page: PAGINATION.defaultPage, limit: PAGINATION.defaultLimit });
  const exhibitor = user?.role === 'exhibitor';
  const { data, error, mutate } = useApi('GET', `/members/${kind.path}` as const, { query: { page: paging.page, limit: pageSize(paging.limit) } }, { enabled: exhibitor });
  const [editing, setEditing] = useState<Member | 'new' | null>(null);
  const [busyId, setBusyId] = useState<number | null>(null);
  const contractor = kind.role === 'contractor';

  if (user && !exhibitor) return <Alert severity="info">{t('members.exhibitorOnly')}</Alert>;
  if (error) return <Alert severity="error">{error.message}</Alert>;
  if (!data) return <PageLoading />;

  const atLimit = data.active >= data.quota;
  const language = isLanguage(i18n.language) ? i18n.language : 'en';

  /** Status changes and resends answer a toast; refusals (the quota, for one) say why. */
  const act = async (member: Member, action: 'activate' | 'deactivate' | 'resend') => {
    setBusyId(member.id);
    try {
      const saved =
        action === 'resend'
          ? await typedApi.post(`/members/${kind.path}/{id}/activation-mail` as const, { path: { id: member.id }, body: { language }, silent: true })
          : await typedApi.post(`/members/${kind.path}/{id}/status` as const, {
              path: { id: member.id },
              body: { status: action === 'activate' ? 'active' : 'disabled', language },
              silent: true,
            });
      if (saved.mailSent === false) showToast('warning', t('members.mailNotSent'));
      else showToast('success', t(action === 'resend' ? 'success.emailSent' : 'success.modified'));
      await mutate();
    } catch (failure) {
      showToast('error', failure instanceof ApiError ? failure.message : String(failure));
    } finally {
      setBusyId(null);
    }
  };

  const actionButtons = (member: Member) => (
    <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>
      <Button size="small" onClick={() => setEditing(member)} aria-label={`${t('members.actions.edit')} ${member.account}`}>
        {t('members.actions.edit')}
      </Button>
      {member.status === 'active' ? (
        <>
          <Button
            size="small"
            color="warning"
            disabled={busyId === member.id}
            onClick={() => void act(member, 'deactivate')}
            aria-label={`${t('members.actions.deactivate')} ${member.account}`}
          >
            {t('members.actions.deactivate')}
          </Button>
          <Button size="small" disabled={busyId === member.id} onClick={() => void act(member, 'resend')} aria-label={`${t('members.actions.resend')} ${member.account}`}>
            {t('members.actions.resend')}
          </Button>
        </>
      ) : (
        <Button
          size="small"
          color="success"
          disabled={busyId === member.id}
          onClick={() => void act(member, 'activate')}
          aria-label={`${t('members.actions.activate')} ${member.account}`}
        >
          {t('members.actions.activate')}
        </Button>
      )}
    </Box>
  );
  const columns: ResponsiveColumn<Member>[] = [
    { key: 'account', label: contractor ? t('members.fields.loginId') : t('members.fields.account'), primary: true, cell: (member) => member.account },
    ...(contractor
      ? [
          { key: 'company', label: t('members.fields.company'), cell: (member: Member) => member.company },
          { key: 'name', label: t('members.fields.contactName'), cell: (member: Member) => member.name },
        ]
      : []),
    { key: 'email', label: t('members.fields.email'), cell: (member) => member.email },
    ...(contractor
      ? []
      : [{ key: 'quota', label: t('members.fields.leadQuota'), cell: (member: Member) => (member.leadQuota === null ? t('members.noLimit') : member.leadQuota) }]),
    {
      key: 'status',
      label: t('members.fields.status'),
      cell: (member) => <Chip size="small" color={member.status === 'active' ? 'success' : 'default'} label={t(`members.status.${member.status}`)} />,
    },
    { key: 'actions', label: t('members.actions.label'), actions: true, cell: actionButtons },
  ];

  return (
    <Stack spacing={2}>
      <Typography>{t(`members.${kind.ns}.intro`)}</Typography>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, flexWrap: 'wrap' }}>
        <Chip label={t('members.usage', { active: data.active, quota: data.quota })} />
        {!atLimit && (
          <Button variant="contained" onClick={() => setEditing('new')}>
            {t(`members.${kind.ns}.add`)}
          </Button>
        )}
      </Box>
      {atLimit && <LimitTips count={1} email={account?.supportEmail || SUPPORT_EMAIL} />}
      <ResponsiveTable
        label={t(`members.${kind.ns}.table`)}
        columns={columns}
        rows={data.items}
        rowKey={(member) => member.id}
        empty={t(`members.${kind.ns}.none`)}
        rowProps={(member) => ({ 'aria-label': member.account })}
      />
      {data.total > 0 && <Pagination total={data.total} page={data.page} limit={data.limit} onChange={setPaging} />}
      {editing && (
        <MemberDialog
          kind={kind}
          member={editing === 'new' ? undefined : editing}
          onClose={() => setEditing(null)}
          onSaved={() => {
            setEditing(null);
            if (editing === 'new') setPaging((current) => ({ ...current, page: 1 }));
            void mutate();
          }}
        />
      )}
    </Stack>
  );
}
