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

/**
 * F9: the id rjsf gives the input of a field named by a validation error's property
 * (".company.companyName" or ".badges.0.email" → "root_company_companyName", "root_badges_0_email").
 */
export function fieldIdOf(property: string | undefined): string {
  const path = (property ?? '')
    .replace(/\['([^']*)'\]/g, '.$1')
    .replace(/\[(\d+)\]/g, '.$1')
    .split('.')
    .filter(Boolean);
  return ['root', ...path].join('_');
}
