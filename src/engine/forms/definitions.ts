// A participation form as forms.yaml declares it (schemas/forms/forms.yaml).

export const DEADLINE_KINDS = ['profile', 'product', 'booth', 'badges'] as const;
export type DeadlineKind = (typeof DEADLINE_KINDS)[number];

/** O1: when a submission waits for the organiser's decision. */
export type ApprovalRule =
  | { when: 'always' }
  | { when: 'anyItemFlag'; list: string; flag: string }
  | { when: 'above'; field: string; limit: number };

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

export interface FormDefinition {
  id: string;
  code: string;
  title: string;
  screen: string | null;
  mandatory: boolean;
  deadline: DeadlineKind;
  submitOnceFlag?: string | null;
  prerequisites?: string[];
  audience: 'exhibitor' | 'both';
  /** F3: entries may be copied from the exhibitor's previous event. */
  inheritFromPreviousEvent?: boolean;
  /** O1: submissions matching this rule wait for the organiser. */
  approval?: ApprovalRule;
  /** P1: the top-level properties a contractor fills in a form shared with the exhibitor. */
  contractorFields?: string[];
  /** O1: the fields shown to the organiser beside a submission that waits for a decision. */
  approvalSummary?: Array<{ field: string; show?: string[] }>;
}

/** Checks the declaration against the form's schema when the forms are loaded; answers the problems. */
export function contractorFieldProblems(definition: FormDefinition, schema: { properties?: Record<string, unknown> }): string[] {
  const fields = definition.contractorFields;
  if (fields === undefined) return [];
  const where = `schemas/forms/forms.yaml (${definition.id}) contractorFields`;
  if (!Array.isArray(fields) || fields.length === 0) return [`${where}: must be a non-empty list`];
  if (definition.audience !== 'both') return [`${where}: only a form for contractors (audience: both) has a contractor part`];
  return fields.filter((field) => typeof field !== 'string' || !Object.hasOwn(schema.properties ?? {}, field)).map((field) => `${where}: "${String(field)}" is not a property of the form`);
}

export type ApprovalStatus = 'pending' | 'approved' | 'rejected';
export const FORM_STATUSES = ['notStarted', 'draft', 'submitted', 'pendingApproval', 'approved', 'rejected', 'closed'] as const;
export type FormStatus = (typeof FORM_STATUSES)[number];

const APPROVAL_STATUS: Record<ApprovalStatus, FormStatus> = { pending: 'pendingApproval', approved: 'approved', rejected: 'rejected' };

/** F1: what the forms list says about a form. */
export function formStatus(
  entry: { status: 'draft' | 'submitted'; approval_status?: ApprovalStatus | null } | null,
  deadline: Date | null,
  now: Date,
): FormStatus {
  if (entry?.status === 'submitted') return entry.approval_status ? APPROVAL_STATUS[entry.approval_status] : 'submitted';
  if (deadline && deadline.getTime() < now.getTime()) return 'closed';
  return entry ? 'draft' : 'notStarted';
}
