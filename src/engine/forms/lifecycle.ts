import {
  deadlineOfForm,
  formStatus,
  hasUnsubmittedChanges,
  needsApproval,
  partStatus,
  type ApprovalRule,
  type ApprovalStatus,
  type FormDefinition,
  type FormStatus,
} from './definitions';
import { approvalPart, partChanged, partsFilledBy, partsOf, partStates, partsToSubmit, sideOf, withPartsFrom, type FormPart, type PartStates } from './parts';
import type { PartView } from '../schemas/part-view';

// The participation forms' life cycle as pure rules (F1, F4, F9, F10): a form's status as a user
// sees it, its submit-once lock and the organiser's reopening, the parts of a shared form (who
// fills which, which are locked, which a submission sends), the prerequisites to submit first,
// and what a submission records. The routes read the rows and the form set and write the result;
// everything they decide in between is here.

/** A saved entry as the rules read it (a form_entries row). */
export interface EntryState {
  status: 'draft' | 'submitted';
  data: Record<string, unknown> | null;
  submitted_data: Record<string, unknown> | null;
  submitted_at: Date | string | null;
  submitted_by: number | null;
  parts?: PartStates | null;
  approval_status?: ApprovalStatus | null;
}

/**
 * A submit-once form for this exhibitor (its flag set) and when the organiser last reopened it
 * (null = never); null when the form is not submit-once for this exhibitor.
 */
export type SubmitOnce = { reopenedAt: Date | null } | null;

/** Whether the form is submit-once for an exhibitor with these flags. */
export function isSubmitOnce(definition: Pick<FormDefinition, 'submitOnceFlag'>, flags: Readonly<Record<string, unknown>>): boolean {
  return !!definition.submitOnceFlag && flags[definition.submitOnceFlag] === true;
}

/**
 * A submit-once form closes with its submission, unless the organiser reopened it after that
 * submission ("contact support"): the next submission is newer than the reopening and closes it
 * again. Whether a submission made at `submittedAt` closes the form (or its part).
 */
export function lockedSince(submitOnce: SubmitOnce, submitted: boolean, submittedAt: Date | string | null | undefined): boolean {
  if (!submitOnce || !submitted) return false;
  return !submitOnce.reopenedAt || !submittedAt || new Date(submittedAt).getTime() > submitOnce.reopenedAt.getTime();
}

/** Whether a user's role fills this form at all (a contractor only the forms shared with it). */
export function visibleToRole(definition: Pick<FormDefinition, 'audience'>, role: string): boolean {
  if (role === 'contractor') return definition.audience === 'both';
  return role === 'exhibitor' || role === 'team_user';
}

/**
 * F10: the prerequisites not submitted yet, and those of them closed by their deadline: a dependent
 * form cannot be submitted until the organiser reopens them, and says so (never a silent deadlock).
 * Answered by form code.
 */
export function prerequisitesOf(
  definition: Pick<FormDefinition, 'prerequisites'>,
  deadlines: Readonly<Record<string, Date>> | undefined,
  entries: ReadonlyMap<string, { status: 'draft' | 'submitted' }>,
  find: (id: string) => FormDefinition | undefined,
  now: Date,
): { missing: string[]; closed: string[] } {
  const missing = (definition.prerequisites ?? []).filter((id) => entries.get(id)?.status !== 'submitted');
  const closed = missing.filter((id) => {
    const prerequisite = find(id);
    const deadline = prerequisite ? deadlineOfForm(deadlines, prerequisite) : null;
    return deadline !== null && deadline.getTime() < now.getTime();
  });
  const code = (id: string) => find(id)?.code ?? id;
  return { missing: missing.map(code), closed: closed.map(code) };
}

/** P1 F4: a form with parts as one user meets it. */
export interface UserParts {
  parts: FormPart[];
  states: PartStates;
  /** The parts the user fills. */
  mine: FormPart[];
  /** The user's own parts: those it submits with every submission (the first side filledBy names). */
  own: FormPart[];
  /** Ids of the parts closed by their own submit-once lock. */
  locked: string[];
  /** The part the approval rule reads. */
  approvalId: string | undefined;
  view: PartView[];
}

/**
 * P1 F4: a form with parts as one user meets it: every part with its status, which of them the
 * user fills, and which are closed by their own submit-once lock. Null for a form of one part.
 */
export function userParts(
  definition: FormDefinition,
  schema: { properties?: Record<string, unknown> },
  role: string,
  entry: EntryState | null | undefined,
  submitOnce: SubmitOnce,
  deadline: Date | null,
  now: Date,
): UserParts | null {
  const parts = partsOf(definition, schema);
  if (!parts) return null;
  const states = partStates(entry, parts);
  const approvalId = approvalPart(parts, definition.approval)?.id;
  const side = sideOf(role);
  const mine = partsFilledBy(parts, side);
  const locked = parts.filter((part) => lockedSince(submitOnce, states[part.id] !== undefined, states[part.id]?.submittedAt)).map((part) => part.id);
  return {
    parts,
    states,
    mine,
    own: mine.filter((part) => part.filledBy[0] === side),
    locked,
    approvalId,
    view: parts.map((part) => ({
      id: part.id,
      title: `forms.parts.${part.id}`,
      mine: mine.includes(part),
      own: mine.includes(part) && part.filledBy[0] === side,
      status: partStatus(part, states, entry ?? null, approvalId, deadline, now),
      submittedAt: states[part.id]?.submittedAt ?? null,
      locked: locked.includes(part.id),
      changesNotSubmitted: states[part.id] !== undefined && partChanged(part, entry?.data, entry?.submitted_data),
    })),
  };
}

/**
 * Whether the form is closed to this user by submit-once: a form with parts once every part the
 * user fills is locked, a form of one part once its submission is.
 */
export function lockedForUser(parts: UserParts | null, submitOnce: SubmitOnce, entry: EntryState | null | undefined): boolean {
  if (parts) return parts.mine.every((mine) => parts.locked.includes(mine.id));
  return lockedSince(submitOnce, entry?.status === 'submitted', entry?.submitted_at);
}

/** Why a change to the form is refused now (submit-once first, then the deadline), or null. */
export function closedTo(
  parts: UserParts | null,
  submitOnce: SubmitOnce,
  entry: EntryState | null | undefined,
  deadline: Date | null,
  now: Date,
): 'submitOnce' | 'deadlinePassed' | null {
  if (lockedForUser(parts, submitOnce, entry)) return 'submitOnce';
  if (deadline && deadline.getTime() < now.getTime()) return 'deadlinePassed';
  return null;
}

/** The status, unsubmitted changes and submission time a user is shown: its own part's for a form with parts. */
export function statusForUser(
  entry: (EntryState & { approval_status?: ApprovalStatus | null }) | null,
  deadline: Date | null,
  now: Date,
  parts: UserParts | null,
): { status: FormStatus; changesNotSubmitted: boolean; submittedAt: string | null } {
  const own = parts?.own[0] ? parts.view.find((part) => part.id === parts.own[0]!.id) : undefined;
  if (!parts || !own) {
    return {
      status: formStatus(entry, deadline, now),
      changesNotSubmitted: hasUnsubmittedChanges(entry),
      submittedAt: entry?.submitted_at ? new Date(entry.submitted_at).toISOString() : null,
    };
  }
  return { status: own.status, changesNotSubmitted: parts.view.some((part) => part.mine && part.changesNotSubmitted), submittedAt: own.submittedAt };
}

/**
 * P1 F4: which fields a save of a form with parts takes from the stored entry (the parts the user
 * may not change: someone else's, or closed by their submit-once lock), and which of those are
 * closed by the user's own submit-once lock (a change to them is refused as submit-once).
 */
export function fixedFields(parts: UserParts): { fixed: string[]; locked: string[] } {
  const changeable = parts.mine.filter((part) => !parts.locked.includes(part.id));
  return {
    fixed: parts.parts.filter((part) => !changeable.includes(part)).flatMap((part) => part.fields),
    locked: parts.parts.filter((part) => parts.locked.includes(part.id) && parts.mine.includes(part)).flatMap((part) => part.fields),
  };
}

/** P1 F4: the parts a submission sends (partsToSubmit: the same rule the browser validates by). */
export function partsSent(parts: UserParts, data: Record<string, unknown>, entry: Pick<EntryState, 'submitted_data'> | null | undefined): FormPart[] {
  return partsToSubmit({ mine: parts.mine, own: parts.own, locked: parts.locked, submitted: Object.keys(parts.states) }, data, entry?.submitted_data);
}

/**
 * What a submission records: the submitted copy, the approval it needs ('keep' = the decision on
 * the previous submission stays: a part that the approval rule does not read was submitted) and
 * each part's submission (null for a form of one part).
 */
export interface Submission {
  submittedData: Record<string, unknown>;
  approval: 'pending' | null | 'keep';
  parts: PartStates | null;
}

/** F9 P1 O1: what submitting `data` records, given the parts it sends (null for a form of one part). */
export function submissionOf(
  data: Record<string, unknown>,
  entry: Pick<EntryState, 'submitted_data'> | null | undefined,
  approval: ApprovalRule | undefined,
  sent: { parts: UserParts; sending: FormPart[] } | null,
  userId: number,
  at: Date,
): Submission {
  if (!sent) return { submittedData: data, parts: null, approval: needsApproval(approval, data) ? 'pending' : null };
  const { parts, sending } = sent;
  const submittedData = withPartsFrom(entry?.submitted_data ?? {}, data, sending);
  const states: PartStates = { ...parts.states, ...Object.fromEntries(sending.map((part) => [part.id, { submittedAt: at.toISOString(), submittedBy: userId }])) };
  const readsApproval = approval !== undefined && sending.some((part) => part.id === parts.approvalId);
  return { submittedData, parts: states, approval: readsApproval ? (needsApproval(approval, submittedData) ? 'pending' : null) : 'keep' };
}
