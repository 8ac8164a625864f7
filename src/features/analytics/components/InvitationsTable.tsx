import { Alert, Chip, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { useApi } from '../../../lib/use-api';
import { usePaging } from '../../../components/Pagination';
import { ResponsiveTable } from '../../../components/ResponsiveTable';
import { PageLoading } from '../../../components/PageLoading';
import { UtcTime } from '../../../components/UtcTime';

// LA5: the invitations of the participation (recipient, sender, status, sent time, reason),
// on the invite page and on the dashboard.

const PENDING_REFRESH_MS = 2_000;

const STATUS_COLOUR = { pending: 'default', sent: 'success', failed: 'error' } as const;

export function InvitationsTable({ path, title, offsetMinutes }: { path: '/invitations' | '/analytics/invitations'; title: string; offsetMinutes: number }) {
  const { t } = useTranslation();
  const { setPaging, query } = usePaging();
  // The mail queue delivers invitations after the request: look again while any is pending.
  const { data, error } = useApi(
    'GET',
    path,
    { query },
    {
      refreshInterval: (latest) => (latest?.items.some((invitation) => invitation.status === 'pending') ? PENDING_REFRESH_MS : 0),
    },
  );
  if (error) return <Alert severity="error">{error.message}</Alert>;
  if (!data) return <PageLoading />;
  if (!(data.total > 0) || !Array.isArray(data.items)) return <Typography color="text.secondary">{t('invitations.list.none')}</Typography>;
  return (
    <ResponsiveTable
      label={title}
      size="small"
      outlined={false}
      rows={data.items}
      rowKey={(invitation) => invitation.id}
      paging={{ total: data.total, page: data.page, limit: data.limit, onChange: setPaging }}
      columns={[
        {
          key: 'recipient',
          label: t('invitations.list.recipient'),
          primary: true,
          cellSx: {},
          cell: (invitation) => (
            <>
              {invitation.recipientName}
              <Typography variant="body2" color="text.secondary" component="div">
                {invitation.recipientEmail}
              </Typography>
            </>
          ),
        },
        { key: 'sender', label: t('invitations.list.sender'), cell: (invitation) => invitation.senderEmail },
        {
          key: 'status',
          label: t('invitations.list.status'),
          cell: (invitation) => <Chip size="small" color={STATUS_COLOUR[invitation.status]} label={t(`invitations.status.${invitation.status}`)} />,
        },
        { key: 'time', label: t('invitations.list.time'), cell: (invitation) => <UtcTime value={invitation.sentAt ?? invitation.createdAt} offsetMinutes={offsetMinutes} /> },
        { key: 'reason', label: t('invitations.list.reason'), cell: (invitation) => invitation.reasonText ?? '' },
      ]}
    />
  );
}
