import { Alert, Link } from '@mui/material';
import { Trans } from 'react-i18next';

/** P4: why a button is missing (a limit was reached), with the support e-mail as a link. */
export function LimitTips({ count, email }: { count: number; email: string }) {
  if (count <= 0) return null;
  return (
    <Alert severity="info">
      <Trans i18nKey={count === 1 ? 'limitTips.single' : 'limitTips.multiple'} values={{ email }} components={{ mail: <Link href={`mailto:${email}`} /> }} />
    </Alert>
  );
}
