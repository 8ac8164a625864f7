import { Chip } from '@mui/material';
import CheckCircleOutline from '@mui/icons-material/CheckCircleOutlineOutlined';
import RadioButtonUnchecked from '@mui/icons-material/RadioButtonUnchecked';
import VisibilityOutlined from '@mui/icons-material/VisibilityOutlined';
import { useTranslation } from 'react-i18next';

export type ManualStatus = 'toView' | 'viewed' | 'acknowledged';

const ICON = { toView: <RadioButtonUnchecked />, viewed: <VisibilityOutlined />, acknowledged: <CheckCircleOutline /> };
const COLOUR = { toView: 'default', viewed: 'info', acknowledged: 'success' } as const;

/** CT1: the status as text and icon (never by colour alone). */
export function ManualStatusChip({ status }: { status: ManualStatus }) {
  const { t } = useTranslation();
  return <Chip size="small" variant="outlined" icon={ICON[status]} color={COLOUR[status]} label={t(`content.manuals.status.${status}`)} />;
}
