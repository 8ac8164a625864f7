import type { FormStatus } from '../../../engine/forms/definitions';

/** F1: one colour per form status, the same in the forms list and on the form. */
export const STATUS_COLOR: Record<FormStatus, 'default' | 'primary' | 'success' | 'warning' | 'error' | 'info'> = {
  notStarted: 'warning',
  draft: 'primary',
  submitted: 'success',
  pendingApproval: 'info',
  approved: 'success',
  rejected: 'error',
  closed: 'default',
};
