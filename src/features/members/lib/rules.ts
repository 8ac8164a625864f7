import type { ErrorId } from '../../../engine/errors';
import { emailProblem, initialPasswordProblem, LEAD_QUOTA_MAX, loginProblem } from '../../../engine/members';

// The engine's member checks applied to the dialog's text fields, so the exhibitor sees each
// problem beside its field before anything is sent.

export interface MemberDraft {
  account: string;
  email: string;
  name: string;
  company: string;
  password: string;
  leadQuota: string;
}

export type MemberProblems = Partial<Record<keyof MemberDraft, ErrorId>>;

/** Problems per field; `creating` adds the account ID, `contractor` the company and contact name. */
export function memberProblems(draft: MemberDraft, { creating, contractor }: { creating: boolean; contractor: boolean }): MemberProblems {
  const problems: MemberProblems = {};
  const account = creating ? loginProblem(draft.account.trim()) : null;
  if (account) problems.account = account;
  const email = emailProblem(draft.email.trim());
  if (email) problems.email = email;
  const password = initialPasswordProblem(draft.password);
  if (password) problems.password = password;
  if (contractor) {
    if (!draft.company.trim()) problems.company = 'required';
    if (!draft.name.trim()) problems.name = 'required';
  } else if (draft.leadQuota.trim() !== '') {
    const quota = Number(draft.leadQuota.trim());
    if (!/^\d+$/.test(draft.leadQuota.trim()) || quota > LEAD_QUOTA_MAX) problems.leadQuota = 'memberLeadQuotaInvalid';
  }
  return problems;
}

/** The lead quota as the API takes it: null for an empty field (no limit). */
export function leadQuotaValue(text: string): number | null {
  return text.trim() === '' ? null : Number(text.trim());
}
