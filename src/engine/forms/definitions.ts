// A participation form as forms.yaml declares it (schemas/forms/forms.yaml).

export const DEADLINE_KINDS = ['profile', 'product', 'booth', 'badges'] as const;
export type DeadlineKind = (typeof DEADLINE_KINDS)[number];

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
}

export type FormStatus = 'notStarted' | 'draft' | 'submitted' | 'closed';

/** F1: what the forms list says about a form. */
export function formStatus(entry: { status: 'draft' | 'submitted' } | null, deadline: Date | null, now: Date): FormStatus {
  if (entry?.status === 'submitted') return 'submitted';
  if (deadline && deadline.getTime() < now.getTime()) return 'closed';
  return entry ? 'draft' : 'notStarted';
}
