import useSWR, { preload } from 'swr';
import type { FormContext } from '../../../engine/forms/context';
import type { FormDefinition, FormStatus } from '../../../engine/forms/definitions';
import type { UploadRules } from '../../../engine/forms/files';
import { api } from '../../../lib/api';

// One form as GET /forms/{id} answers it: read by the form (FormRuntime) and the read-only
// summary of its submission (SubmissionSummary).

/** One part of a form with parts (P1 F4) as GET /forms and GET /forms/{id} answer it. */
export interface PartSummary {
  id: string;
  /** Locale key of the part's name. */
  title: string;
  /** The user fills this part. */
  mine: boolean;
  status: FormStatus;
  submittedAt: string | null;
  /** Closed by its own submit-once lock. */
  locked: boolean;
  changesNotSubmitted: boolean;
}

export interface FormPayload {
  definition: FormDefinition;
  schema: Record<string, unknown>;
  ui: Record<string, unknown>;
  /** The version of the forms this payload comes from (they change while the portal runs). */
  formsVersion: string;
  /** The server-compiled validators of this schema: a same-origin ES module. */
  validator: { url: string; rootKey: string };
  /** This form's strings (`forms.<id>` of the locales) by language, as the server has them now. */
  strings: Record<string, Record<string, unknown>>;
  context: FormContext;
  /** V2 V3: the rules of the upload purposes this form's file fields name (forms.yaml `uploads:`). */
  uploads: UploadRules;
  deadline: string | null;
  status: FormStatus;
  /** F9: the working copy differs from the current submission. */
  changesNotSubmitted: boolean;
  locked: boolean;
  closed: boolean;
  missingPrerequisites: string[];
  /** F10: prerequisites closed by their deadline before they were submitted (the organiser can reopen them). */
  closedPrerequisites: string[];
  /** P1 F4: a shared form's parts, each with its own status and submit-once lock (null = one part). */
  parts: PartSummary[] | null;
  entry: {
    data: Record<string, unknown>;
    version: number;
    status: 'draft' | 'submitted';
    submittedData: Record<string, unknown> | null;
    submittedAt: string | null;
    approval: { status: 'pending' | 'approved' | 'rejected'; comment: string | null; decidedAt: string | null } | null;
  } | null;
}

const fetchPayload = (path: string) => api.get<FormPayload>(path);

export function useFormPayload(formId: string) {
  return useSWR<FormPayload>(`/forms/${formId}`, fetchPayload, { revalidateOnFocus: false });
}

/** Issue 13: asks for a form at start, beside the code that shows it (the hook then finds the answer). */
export function preloadFormPayload(formId: string): void {
  preload(`/forms/${formId}`, fetchPayload).catch(() => undefined);
}
