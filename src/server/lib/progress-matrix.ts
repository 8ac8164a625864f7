import type { FastifyInstance } from 'fastify';
import type { FromSchema } from 'json-schema-to-ts';
import { deadlineOfForm, FORM_STATUSES, formStatus, partStatus, type FormDefinition, type FormStatus } from '../../engine/forms/definitions';
import { sameProperties } from '../../engine/schemas/json-schema';
import { searchFold } from '../../engine/search';
import { approvalPart, partsOf, type FormPart } from '../../engine/forms/parts';
import { eachStoredProgress, type StoredProgress } from '../plugins/form-entries';
import { foldedText } from './folded-text';
import { pageOf } from './paging';

// O2, progress: every exhibitor of one event × every participation form, with the status
// the exhibitor itself sees (formStatus over the submission and the effective deadline). A form
// with parts (forms.yaml `parts:`) has a status per part, and counts as submitted only
// when every part is: a contractor's part alone leaves the exhibitor's booth design missing.

/** What counts as done for "mandatory forms missing": submitted, waiting or approved. */
const DONE: ReadonlySet<FormStatus> = new Set(['submitted', 'pendingApproval', 'approved']);

const counts = { type: 'object', properties: sameProperties(FORM_STATUSES, { type: 'integer' }), required: [...FORM_STATUSES], additionalProperties: false } as const;
const statusMap = { type: 'object', additionalProperties: { type: 'string', enum: [...FORM_STATUSES] } } as const;

const progressRowSchema = {
  type: 'object',
  properties: {
    participationId: { type: 'integer' },
    exhibitor: { type: 'string' },
    code: { type: ['string', 'null'] },
    boothNum: { type: 'string' },
    statuses: statusMap,
    parts: { type: 'object', description: 'Forms with parts: form id → part id → status', additionalProperties: statusMap },
    missingMandatory: { type: 'array', items: { type: 'string' } },
    manualsAcknowledged: { type: 'integer', description: 'Manuals needing acknowledgement that the exhibitor acknowledged' },
  },
  required: ['participationId', 'exhibitor', 'code', 'boothNum', 'statuses', 'parts', 'missingMandatory', 'manualsAcknowledged'],
  additionalProperties: false,
} as const;

/** The matrix as the progress route answers it; this schema is the only description of it. */
export const progressMatrixSchema = {
  type: 'object',
  properties: {
    forms: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          id: { type: 'string' },
          code: { type: 'string' },
          title: { type: 'string', description: 'Locale key' },
          mandatory: { type: 'boolean' },
          counts,
          parts: {
            type: 'array',
            description: 'A form with parts (forms.yaml `parts:`): its parts, the exhibitor’s own first; the form counts as submitted only when every part is',
            items: {
              type: 'object',
              properties: { id: { type: 'string' }, title: { type: 'string', description: 'Locale key' } },
              required: ['id', 'title'],
              additionalProperties: false,
            },
          },
        },
        required: ['id', 'code', 'title', 'mandatory', 'counts'],
        additionalProperties: false,
      },
    },
    rows: { type: 'array', items: progressRowSchema },
    manualsToAcknowledge: { type: 'integer', description: 'Published manuals of the event that need acknowledging' },
  },
  required: ['forms', 'rows', 'manualsToAcknowledge'],
  additionalProperties: false,
} as const;

/** One exhibitor's row; with `withDeadlines`, also its effective deadlines by name (reminders need them; never answered). */
export type ProgressRow = FromSchema<typeof progressRowSchema> & { deadlines?: Record<string, Date> };
export type ProgressMatrix = Omit<FromSchema<typeof progressMatrixSchema>, 'rows'> & { rows: ProgressRow[] };

/** The rows a reader keeps: every word in the exhibitor's name or booth (folded), and with a status, the form (or any form) in it. */
export const progressFilterSchema = {
  type: 'object',
  properties: {
    keyword: { type: 'string', maxLength: 100, description: 'Words all found in the exhibitor’s name or booth (case and accents folded)' },
    form: { type: 'string', maxLength: 64, description: 'With formStatus: the form whose status is filtered (any form when absent)' },
    formStatus: { type: 'string', enum: [...FORM_STATUSES] },
  },
  additionalProperties: false,
} as const;

export type ProgressFilter = FromSchema<typeof progressFilterSchema>;

/** The matrix with its rows paged: the counts stay over every exhibitor; `total` is the rows the filters keep. */
export type ProgressMatrixPage = ProgressMatrix & { total: number; page: number; limit: number; exhibitors: number };

const emptyCounts = (): Record<FormStatus, number> => ({ notStarted: 0, draft: 0, submitted: 0, pendingApproval: 0, approved: 0, rejected: 0, closed: 0 });

/** Options of the matrix and of its pages. */
interface MatrixOptions {
  missingOnly?: boolean;
  now?: Date;
  withDeadlines?: boolean;
  schemaOf?: (formId: string) => { properties?: Record<string, unknown> };
  filter?: ProgressFilter;
}

/** What one exhibitor's row shows, worked out from its entries' stored progress and its deadlines. */
interface RowState {
  statuses: Record<string, FormStatus>;
  parts: Record<string, Record<string, FormStatus>>;
  missingMandatory: string[];
}

/**
 * Every active exhibitor's state and the counts per form (over all of them), and the exhibitors
 * the filters keep (by name). The rows themselves are left to the caller (a page builds 50).
 */
async function progressStates(app: Pick<FastifyInstance, 'db' | 'formEntries'>, eventId: number, definitions: FormDefinition[], options: MatrixOptions) {
  const now = options.now ?? new Date();
  // Without the schema (reminders) the exhibitor's part has no fields of its own to look at: its
  // submission still counts, only "draft" vs "not started" of that part is not told apart.
  const partsByForm = new Map<string, FormPart[]>();
  for (const definition of definitions) {
    const parts = partsOf(definition, options.schemaOf?.(definition.id) ?? {});
    if (parts) partsByForm.set(definition.id, parts);
  }
  const partedIds = [...partsByForm.keys()];
  // One row per exhibitor with its entries' stored progress (short texts the database keeps on
  // every write): every exhibitor is read, as the counts are over all of them; the manuals are
  // counted only for the rows answered. The statuses follow here from that progress, the form
  // set's parts and the deadlines now, so a moved deadline or a new form set applies at once.
  const { db } = app;
  const [participations, manuals, deadlineRows] = await Promise.all([
    db
      .selectFrom('participations')
      .innerJoin('exhibitors', 'exhibitors.id', 'participations.exhibitor_id')
      .select(['participations.id', 'exhibitors.name', 'exhibitors.code', 'participations.booth_num', app.formEntries.progressOfParticipation(partedIds).as('progress')])
      .where('participations.event_id', '=', eventId)
      .where('participations.status', '=', 'active')
      .orderBy('exhibitors.name')
      .orderBy('participations.id')
      .execute(),
    db
      .selectFrom('content')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where('event_id', '=', eventId)
      .where('kind', '=', 'manual')
      .where('ack_required', '=', true)
      .where('published_at', '<=', now)
      .executeTakeFirstOrThrow(),
    db.selectFrom('deadlines').select(['participation_id', 'name', 'due_at']).where('event_id', '=', eventId).execute(),
  ]);
  // The event's deadlines, and an exhibitor's own where the organiser moved one (few): the
  // deadline of each form is worked out once for every exhibitor without one of its own.
  const eventDeadlines: Record<string, Date> = {};
  const ownDeadlines = new Map<number, Record<string, Date>>();
  for (const row of deadlineRows) {
    if (row.participation_id === null) eventDeadlines[row.name] = new Date(row.due_at);
    else ownDeadlines.set(row.participation_id, { ...ownDeadlines.get(row.participation_id), [row.name]: new Date(row.due_at) });
  }
  const deadlinesOf = (participationId: number): Record<string, Date> => {
    const own = ownDeadlines.get(participationId);
    return own ? { ...eventDeadlines, ...own } : eventDeadlines;
  };
  const eventFormDeadlines = definitions.map((definition) => deadlineOfForm(eventDeadlines, definition));
  const forms = definitions.map((d) => {
    const parts = partsByForm.get(d.id);
    return {
      id: d.id,
      code: d.code,
      title: d.title,
      mandatory: d.mandatory,
      counts: emptyCounts(),
      ...(parts ? { parts: parts.map((part) => ({ id: part.id, title: `forms.parts.${part.id}` })) } : {}),
    };
  });
  const approvalIds = new Map([...partsByForm].map(([formId, parts]) => [formId, approvalPart(parts, definitions.find((d) => d.id === formId)?.approval)?.id]));
  /**
   * A form with parts as a whole: done (the approval part's decision, else submitted) when every
   * part is submitted; otherwise closed past the deadline, a draft once any part has begun.
   */
  const partedStatus = (statuses: FormStatus[], approvalStatus: FormStatus | undefined, deadline: Date | null): FormStatus => {
    if (statuses.every((status) => DONE.has(status) || status === 'rejected')) return approvalStatus ?? 'submitted';
    if (deadline && deadline.getTime() < now.getTime()) return 'closed';
    return statuses.some((status) => status !== 'notStarted' && status !== 'closed') ? 'draft' : 'notStarted';
  };
  /** Each part's status (partStatus over the stored progress: which parts were submitted, which fields hold something). */
  const partStatusesOf = (entry: StoredProgress | undefined, parts: FormPart[], approvalId: string | undefined, deadline: Date | null): Record<string, FormStatus> => {
    const submitted = entry?.submittedParts;
    const states = Object.fromEntries(parts.filter((part) => submitted === 'all' || submitted?.includes(part.id)).map((part) => [part.id, { submittedAt: '', submittedBy: null }]));
    const data = entry ? Object.fromEntries((entry.dataKeys ?? []).map((key) => [key, true])) : null;
    const approval = entry ? { data, approval_status: entry.approval } : null;
    return Object.fromEntries(parts.map((part) => [part.id, partStatus(part, states, approval, approvalId, deadline, now)]));
  };
  const formIndex = new Map(definitions.map((definition, index) => [definition.id, index]));
  /** One exhibitor's statuses from its stored progress and each form's deadline. */
  const stateOf = (progress: string | null, deadlineOf: (index: number) => Date | null): RowState => {
    const entries: Array<StoredProgress | undefined> = [];
    eachStoredProgress(progress, (formId, entry) => {
      const index = formIndex.get(formId);
      if (index !== undefined) entries[index] = entry;
    });
    const state: RowState = { statuses: {}, parts: {}, missingMandatory: [] };
    definitions.forEach((definition, index) => {
      const entry = entries[index];
      const deadline = deadlineOf(index);
      const parts = partsByForm.get(definition.id);
      let status: FormStatus;
      if (parts) {
        const approvalId = approvalIds.get(definition.id);
        const byPart = partStatusesOf(entry, parts, approvalId, deadline);
        state.parts[definition.id] = byPart;
        status = partedStatus(Object.values(byPart), approvalId ? byPart[approvalId] : undefined, deadline);
      } else {
        status = formStatus(entry ? { status: entry.status, approval_status: entry.approval } : null, deadline, now);
      }
      state.statuses[definition.id] = status;
      if (definition.mandatory && !DONE.has(status)) state.missingMandatory.push(definition.id);
    });
    return state;
  };
  const tally = (state: RowState, exhibitors: number) => {
    definitions.forEach((definition, index) => {
      forms[index]!.counts[state.statuses[definition.id]!] += exhibitors;
    });
  };
  const words = searchFold(options.filter?.keyword ?? '')
    .split(/\s+/)
    .filter(Boolean);
  const wanted = options.filter?.formStatus;
  const wantedForm = options.filter?.form;
  // Exhibitors without deadlines of their own whose entries stand alike (the same stored
  // progress: most of a show's) share one state, worked out once and counted by how many share it.
  const shared = new Map<string, { state: RowState; exhibitors: number }>();
  const eventDeadlineOf = (index: number) => eventFormDeadlines[index]!;
  const kept: Array<{ participation: (typeof participations)[number]; state: RowState }> = [];
  for (const participation of participations) {
    let state: RowState;
    const own = ownDeadlines.get(participation.id);
    if (own) {
      const deadlines = deadlinesOf(participation.id);
      state = stateOf(participation.progress, (index) => deadlineOfForm(deadlines, definitions[index]!));
      tally(state, 1);
    } else {
      const key = participation.progress ?? '';
      let alike = shared.get(key);
      if (!alike) {
        alike = { state: stateOf(participation.progress, eventDeadlineOf), exhibitors: 0 };
        shared.set(key, alike);
      }
      alike.exhibitors += 1;
      state = alike.state;
    }
    if (options.missingOnly && state.missingMandatory.length === 0) continue;
    if (words.length > 0) {
      const name = foldedText(participation.name);
      const booth = foldedText(participation.booth_num);
      if (!words.every((word) => name.includes(word) || booth.includes(word))) continue;
    }
    if (wanted && !(wantedForm ? state.statuses[wantedForm] === wanted : Object.values(state.statuses).includes(wanted))) continue;
    kept.push({ participation, state });
  }
  for (const { state, exhibitors } of shared.values()) tally(state, exhibitors);
  /** A kept exhibitor's row as answered (its manuals counted afterwards, for the rows answered only). */
  const rowOf = ({ participation, state }: (typeof kept)[number]): ProgressRow => ({
    participationId: participation.id,
    exhibitor: participation.name,
    code: participation.code,
    boothNum: participation.booth_num,
    statuses: { ...state.statuses },
    parts: state.parts,
    missingMandatory: [...state.missingMandatory],
    manualsAcknowledged: 0,
    ...(options.withDeadlines ? { deadlines: { ...deadlinesOf(participation.id) } } : {}),
  });
  return { manualsToAcknowledge: Number(manuals.count), forms, kept, rowOf, exhibitors: participations.length };
}

/**
 * The matrix of the event's active exhibitors (by name). Counts are over every exhibitor; with
 * `missingOnly` the rows are those with at least one mandatory form not done.
 */
export async function progressMatrix(
  app: Pick<FastifyInstance, 'db' | 'formEntries'>,
  eventId: number,
  definitions: FormDefinition[],
  options: MatrixOptions = {},
): Promise<ProgressMatrix & { exhibitors: number }> {
  const { kept, rowOf, ...matrix } = await progressStates(app, eventId, definitions, options);
  return { ...matrix, rows: await withManuals(app.db, kept.map(rowOf)) };
}

/** Each row's manuals acknowledged (of those needing it), in one query for the rows given. */
async function withManuals(db: FastifyInstance['db'], rows: ProgressRow[]): Promise<ProgressRow[]> {
  if (rows.length === 0) return rows;
  const acknowledged = await db
    .selectFrom('manual_status as ms')
    .innerJoin('content as c', 'c.id', 'ms.content_id')
    .select(['ms.participation_id', (eb) => eb.fn.countAll<string>().as('n')])
    .where(
      'ms.participation_id',
      'in',
      rows.map((row) => row.participationId),
    )
    .where('ms.acknowledged_at', 'is not', null)
    .where('c.ack_required', '=', true)
    .where('c.kind', '=', 'manual')
    .groupBy('ms.participation_id')
    .execute();
  const countOf = new Map(acknowledged.map((row) => [row.participation_id, Number(row.n)]));
  return rows.map((row) => ({ ...row, manualsAcknowledged: countOf.get(row.participationId) ?? 0 }));
}

/** One page of the matrix (filters as `progressMatrix`): only that page's rows are made, and their manuals counted. */
export async function progressMatrixPage(
  app: Pick<FastifyInstance, 'db' | 'formEntries'>,
  eventId: number,
  definitions: FormDefinition[],
  options: MatrixOptions & { page: { page?: number; limit?: number } },
): Promise<ProgressMatrixPage> {
  const { page: request, ...rest } = options;
  const { kept, rowOf, ...matrix } = await progressStates(app, eventId, definitions, rest);
  const page = pageOf(request, kept.length);
  return {
    ...matrix,
    rows: await withManuals(app.db, kept.slice(page.offset, page.offset + page.limit).map(rowOf)),
    total: kept.length,
    page: page.page,
    limit: page.limit,
  };
}
