// A participation form as forms.yaml declares it (schemas/forms/forms.yaml). The types come from
// forms.yaml's JSON Schema (form-list-schema.ts), so the file, its check and the code agree.

import type { FromSchema } from 'json-schema-to-ts';
import { sameJson } from './canonical';
import type { FORM_DEFINITION_SCHEMA, FORM_LIST_SCHEMA } from './form-list-schema';
import { partHasData, type FormPart, type PartStates } from './parts';

/** The whole of forms.yaml, as its loader (form-list.ts) answers it. */
export type FormList = FromSchema<typeof FORM_LIST_SCHEMA>;
/** One form of forms.yaml. */
export type FormDefinition = FromSchema<typeof FORM_DEFINITION_SCHEMA>;

/** O1: when a submission waits for the organiser's decision. */
export type ApprovalRule = NonNullable<FormDefinition['approval']>;

export function needsApproval(rule: ApprovalRule | undefined, data: Record<string, unknown>): boolean {
  if (!rule) return false;
  switch (rule.when) {
    case 'always':
      return true;
    case 'anyItemFlag': {
      const items = data[rule.list];
      return Array.isArray(items) && items.some((item) => typeof item === 'object' && item !== null && (item as Record<string, unknown>)[rule.flag] === true);
    }
    case 'above': {
      const value = data[rule.field];
      return typeof value === 'number' && value > rule.limit;
    }
  }
}

/** F5: what each item of a list carrying a flag costs (extra badges). */
export type ItemFee = NonNullable<FormDefinition['fee']>;

/** F5: how many items of the data carry the fee's flag, and what they cost together (as a decimal string). */
export function feeTotal(fee: ItemFee, data: Record<string, unknown>): { count: number; total: string } {
  const items = data[fee.list];
  const count = Array.isArray(items) ? items.filter((item) => typeof item === 'object' && item !== null && (item as Record<string, unknown>)[fee.flag] === true).length : 0;
  const cents = Math.round(Number(fee.price) * 100) * count;
  return { count, total: (cents / 100).toFixed(2) };
}

/**
 * F5 O1: the values a form's help texts may mention ({{price}}, {{currency}}, {{limit}}), from its
 * forms.yaml declarations (the fee of a flagged item, the limit of an `above` approval rule): the
 * text and the rule can never disagree, and no value is written in code.
 */
export function helpParams(definition: Pick<FormDefinition, 'fee' | 'approval'>): Record<string, string | number> {
  const params: Record<string, string | number> = {};
  if (definition.fee) Object.assign(params, { price: definition.fee.price, currency: definition.fee.currency });
  if (definition.approval?.when === 'above') params.limit = definition.approval.limit;
  return params;
}

export type ApprovalStatus = 'pending' | 'approved' | 'rejected';
/**
 * O2 F9: the key of one exhibitor's own deadline for one form (the organiser's reopening), beside
 * the deadline names (`badges`, …) that every form naming them shares. Reopening one form must not
 * move the others that share its deadline name.
 */
export const FORM_DEADLINE_PREFIX = 'form:';
export const formDeadlineKey = (formId: string): string => `${FORM_DEADLINE_PREFIX}${formId}`;

/**
 * O2: a form's effective deadline from the effective deadlines by key (event values overridden by
 * the exhibitor's): the exhibitor's own for this form, else the one its deadline name gives.
 */
export function deadlineOfForm(deadlines: Readonly<Record<string, Date>> | undefined, definition: Pick<FormDefinition, 'id' | 'deadline'>): Date | null {
  return deadlines?.[formDeadlineKey(definition.id)] ?? deadlines?.[definition.deadline] ?? null;
}

/**
 * A form named for a reader: its translated title, which usually carries the form's code already
 * ("S01 Promotion profile", "Thư mời điện tử VIP"); the code goes in front only where it does not.
 */
export function formDisplayName(code: string, title: string): string {
  return title.split(/\s+/).includes(code) ? title : `${code} ${title}`;
}

export const FORM_STATUSES = ['notStarted', 'draft', 'submitted', 'pendingApproval', 'approved', 'rejected', 'closed'] as const;
export type FormStatus = (typeof FORM_STATUSES)[number];

const APPROVAL_STATUS: Record<ApprovalStatus, FormStatus> = { pending: 'pendingApproval', approved: 'approved', rejected: 'rejected' };

/**
 * F1 F9: what the forms list says about a form. The status is the current submission's: editing a
 * submitted form makes a working copy (see `hasUnsubmittedChanges`) and never withdraws the
 * submission, its approval decision or its documents.
 */
export function formStatus(entry: { status: 'draft' | 'submitted'; approval_status?: ApprovalStatus | null } | null, deadline: Date | null, now: Date): FormStatus {
  if (entry?.status === 'submitted') return entry.approval_status ? APPROVAL_STATUS[entry.approval_status] : 'submitted';
  if (deadline && deadline.getTime() < now.getTime()) return 'closed';
  return entry ? 'draft' : 'notStarted';
}

/**
 * P1 F4: what the lists say about one part of a form with parts: its own submission's status (the
 * approval decision belongs to the part the approval rule reads), else closed, draft or not started.
 */
export function partStatus(
  part: FormPart,
  states: PartStates,
  entry: { data: Record<string, unknown> | null; approval_status?: ApprovalStatus | null } | null,
  approvalPartId: string | undefined,
  deadline: Date | null,
  now: Date,
): FormStatus {
  if (states[part.id]) return part.id === approvalPartId && entry?.approval_status ? APPROVAL_STATUS[entry.approval_status] : 'submitted';
  if (deadline && deadline.getTime() < now.getTime()) return 'closed';
  return partHasData(part, entry?.data) ? 'draft' : 'notStarted';
}

/** F9: the working copy of a submitted form differs from its current submission ("changes not submitted yet"). */
export function hasUnsubmittedChanges(entry: { status: 'draft' | 'submitted'; data: unknown; submitted_data: unknown } | null): boolean {
  return entry?.status === 'submitted' && !sameJson(entry.data, entry.submitted_data ?? {});
}
