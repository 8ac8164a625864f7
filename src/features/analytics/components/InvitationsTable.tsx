import { useState } from 'react';
import { Alert, Chip, Table, TableBody, TableCell, TableContainer, TableHead, TableRow, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { PAGINATION } from '../../../engine/constants';
import { useApi } from '../../../lib/use-api';
import { pageSize } from '../../../engine/pagination';
import { Pagination } from '../../../components/Pagination';
import { PageLoading } from '../../../components/PageLoading';
import { UtcTime } from '../../../components/UtcTime';

// LA5: the invitations of the participation (recipient, sender, status, sent time, reason),
// on the invite page and on the dashboard.

const PENDING_REFRESH_MS = 2_000;

const STATUS_COLOUR = { pending: 'default', sent: 'success', failed: 'error' } as const;

export function InvitationsTable({ path, title, offsetMinutes }: { path: '/invitations' | '/analytics/invitations'; title: string; offsetMinutes: number }) {
  const { t } = useTranslation();
  const [paging, setPaging] = useState<{ page: number; limit: number }>({ page: PAGINATION.defaultPage, limit: PAGINATION.defaultLimit });
  // The mail queue delivers invitations after the request: look again while any is pending.
  const { data, error } = useApi(
    'GET',
    path,
    { query: { page: paging.page, limit: pageSize(paging.limit) } },
    {
      refreshInterval: (latest) => (latest?.items.some((invitation) => invitation.status === 'pending') ? PENDING_REFRESH_MS : 0),
    },
  );
  if (error) return <Alert severity="error">{error.message}</Alert>;
  if (!data) return <PageLoading />;
  if (!(data.total > 0) || !Array.isArray(data.items)) return <Typography color="text.secondary">{t('invitations.list.none')}</Typography>;
  return (
    <>
      <TableContainer>
        <Table size="small" aria-label={title}>
          <TableHead>
            <TableRow>
              <TableCell scope="col">{t('invitations.list.recipient')}</TableCell>
              <TableCell scope="col">{t('invitations.list.sender')}</TableCell>
              <TableCell scope="col">{t('invitations.list.status')}</TableCell>
              <TableCell scope="col">{t('invitations.list.time')}</TableCell>
              <TableCell scope="col">{t('invitations.list.reason')}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {data.items.map((invitation) => (
              <TableRow key={invitation.id}>
                <TableCell>
                  {invitation.recipientName}
                  <Typography variant="body2" color="text.secondary" component="div">
                    {invitation.recipientEmail}
                  </Typography>
                </TableCell>
                <TableCell>{invitation.senderEmail}</TableCell>
                <TableCell>
                  <Chip size="small" color={STATUS_COLOUR[invitation.status]} label={t(`invitations.status.${invitation.status}`)} />
                </TableCell>
                <TableCell>
                  <UtcTime value={invitation.sentAt ?? invitation.createdAt} offsetMinutes={offsetMinutes} />
                </TableCell>
                <TableCell>{invitation.reasonText ?? ''}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </TableContainer>
      <Pagination total={data.total} page={data.page} limit={data.limit} onChange={setPaging} />
    </>
  );
}
