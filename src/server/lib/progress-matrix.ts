import type { FastifyInstance } from 'fastify';
import type { FromSchema } from 'json-schema-to-ts';
import { deadlineOfForm, FORM_STATUSES, formStatus, partStatus, type FormDefinition, type FormStatus } from '../../engine/forms/definitions';
import { sameProperties } from '../../engine/schemas/json-schema';
import { searchFold } from '../../engine/search';
import { approvalPart, partsOf, type FormPart } from '../../engine/forms/parts';
import { sql } from 'kysely';
import { eachStoredProgress, storedProgressOfKey, type StoredProgress } from '../plugins/form-entries';
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

/** One exhibitor of the event as a page reads it, with the key of its stored progress. */
interface ParticipationRow {
  id: number;
  name: string;
  code: string | null;
  booth_num: string;
  key: string;
}

/**
 * The counts per form over every active exhibitor, and the rows the filters keep (by name), in
 * `page` when one is asked for. Exhibitors are read grouped by their stored progress (the database
 * keeps each participation's in one row): a group's state is worked out once and counted by how
 * many share it; the few with a deadline of their own are worked out one by one. Without a keyword
 * only the page's rows are read, from the groups the filters keep; a keyword reads every
 * exhibitor's name and booth.
 */
async function progressStates(
  app: Pick<FastifyInstance, 'db' | 'formEntries'>,
  eventId: number,
  definitions: FormDefinition[],
  options: MatrixOptions,
  request: { page?: number; limit?: number } | null,
) {
  const now = options.now ?? new Date();
  // Without the schema (reminders) the exhibitor's part has no fields of its own to look at: its
  // submission still counts, only "draft" vs "not started" of that part is not told apart.
  const partsByForm = new Map<string, FormPart[]>();
  for (const definition of definitions) {
    const parts = partsOf(definition, options.schemaOf?.(definition.id) ?? {});
    if (parts) partsByForm.set(definition.id, parts);
  }
  const partedIds = [...partsByForm.keys()];
  // The statuses follow here from the stored progress, the form set's parts and the deadlines
  // now, so a moved deadline or a new form set applies at once.
  const { db } = app;
  const { key, columns: keyColumns } = app.formEntries.progressKey(partedIds);
  const activeOfEvent = sql`p.event_id = ${eventId} and p.status = 'active'`;
  const hasOwnDeadline = sql`exists (select 1 from deadlines d where d.event_id = ${eventId} and d.participation_id = p.id)`;
  // With a status filter, each group's exhibitors too: a page then keeps its rows by id.
  const filtered = Boolean(options.missingOnly || options.filter?.formStatus);
  const [groups, ownRows, manuals, deadlineRows] = await Promise.all([
    sql<{ key: string; exhibitors: number; ids?: number[] }>`select ${key} as key, count(*)::int as exhibitors${filtered ? sql`, array_agg(p.id) as ids` : sql``}
      from participations p left join participation_progress pp on pp.participation_id = p.id
      where ${activeOfEvent} and not ${hasOwnDeadline} group by ${keyColumns}`.execute(db),
    sql<{ id: number; key: string }>`select p.id, ${key} as key
      from participations p left join participation_progress pp on pp.participation_id = p.id
      where ${activeOfEvent} and ${hasOwnDeadline}`.execute(db),
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
  const wanted = options.filter?.formStatus;
  const wantedForm = options.filter?.form;
  /** Whether the status filters keep a row in this state (the keyword is applied apart). */
  const keeps = (state: RowState) =>
    !(options.missingOnly && state.missingMandatory.length === 0) &&
    !(wanted && !(wantedForm ? state.statuses[wantedForm] === wanted : Object.values(state.statuses).includes(wanted)));
  // Each group's state under the event's deadlines; an exhibitor with a deadline of its own
  // leaves its group and is worked out under its own deadlines.
  const eventDeadlineOf = (index: number) => eventFormDeadlines[index]!;
  const shared = new Map(
    groups.rows.map((group) => [group.key, { state: stateOf(storedProgressOfKey(group.key), eventDeadlineOf), exhibitors: group.exhibitors, ids: group.ids ?? [] }]),
  );
  const own = new Map<number, RowState>();
  for (const row of ownRows.rows) {
    const deadlines = deadlinesOf(row.id);
    own.set(
      row.id,
      stateOf(storedProgressOfKey(row.key), (index) => deadlineOfForm(deadlines, definitions[index]!)),
    );
  }
  let exhibitors = 0;
  let total = 0;
  const keptIds: number[] = [];
  for (const { state, exhibitors: count, ids } of shared.values()) {
    exhibitors += count;
    tally(state, count);
    if (keeps(state)) {
      total += count;
      for (const id of ids) keptIds.push(id);
    }
  }
  for (const [id, state] of own) {
    exhibitors += 1;
    tally(state, 1);
    if (keeps(state)) {
      total += 1;
      keptIds.push(id);
    }
  }
  const words = searchFold(options.filter?.keyword ?? '')
    .split(/\s+/)
    .filter(Boolean);
  const isKept = sql`${activeOfEvent} and ${filtered ? sql`p.id in (select unnest(${sql.val(keptIds)}::int[]))` : sql`true`}`;
  const fromKept = sql`from participations p join exhibitors e on e.id = p.exhibitor_id where ${isKept}`;
  /** The rows of these exhibitors (by name) with their keys. */
  const rowsOf = async (ids: number[]) =>
    ids.length === 0
      ? []
      : (
          await sql<ParticipationRow>`select p.id, e.name, e.code, p.booth_num, ${key} as key
            from participations p join exhibitors e on e.id = p.exhibitor_id left join participation_progress pp on pp.participation_id = p.id
            where p.id in (select unnest(${sql.val(ids)}::int[])) order by e.name, p.id`.execute(db)
        ).rows;
  let pageRows: ParticipationRow[] = [];
  let page: { page: number; limit: number; offset: number } | null = null;
  if (words.length > 0) {
    // A keyword reads every kept exhibitor's name and booth only, then the rows found (or the page's).
    const names =
      total === 0 ? [] : (await sql<{ id: number; name: string; booth_num: string }>`select p.id, e.name, p.booth_num ${fromKept} order by e.name, p.id`.execute(db)).rows;
    const found = names.filter((row) => {
      const name = foldedText(row.name);
      const booth = foldedText(row.booth_num);
      return words.every((word) => name.includes(word) || booth.includes(word));
    });
    total = found.length;
    page = request ? pageOf(request, total) : null;
    pageRows = await rowsOf((page ? found.slice(page.offset, page.offset + page.limit) : found).map((row) => row.id));
  } else if (request) {
    // A page's keys are made for its own rows only, after the sort.
    page = pageOf(request, total);
    if (total > 0)
      pageRows = (
        await sql<ParticipationRow>`select s.id, s.name, s.code, s.booth_num,
            (select ${key} from (select 1) one left join participation_progress pp on pp.participation_id = s.id) as key
          from (select p.id, e.name, e.code, p.booth_num ${fromKept} order by e.name, p.id limit ${page.limit} offset ${page.offset}) s
          order by s.name, s.id`.execute(db)
      ).rows;
  } else if (total > 0)
    pageRows = (
      await sql<ParticipationRow>`select p.id, e.name, e.code, p.booth_num, ${key} as key
        from participations p join exhibitors e on e.id = p.exhibitor_id left join participation_progress pp on pp.participation_id = p.id
        where ${isKept} order by e.name, p.id`.execute(db)
    ).rows;
  /** A kept exhibitor's row as answered (its manuals counted afterwards, for the rows answered only). */
  const rowOf = (participation: ParticipationRow): ProgressRow => {
    // A row written since the groups were read may stand in no group: worked out from its own key.
    const state = own.get(participation.id) ?? shared.get(participation.key)?.state ?? stateOf(storedProgressOfKey(participation.key), eventDeadlineOf);
    return {
      participationId: participation.id,
      exhibitor: participation.name,
      code: participation.code,
      boothNum: participation.booth_num,
      statuses: { ...state.statuses },
      parts: state.parts,
      missingMandatory: [...state.missingMandatory],
      manualsAcknowledged: 0,
      ...(options.withDeadlines ? { deadlines: { ...deadlinesOf(participation.id) } } : {}),
    };
  };
  return { manualsToAcknowledge: Number(manuals.count), forms, rows: pageRows.map(rowOf), total, page, exhibitors };
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
  const { rows, total: _total, page: _page, ...matrix } = await progressStates(app, eventId, definitions, options, null);
  return { ...matrix, rows: await withManuals(app.db, rows) };
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

/** One page of the matrix (filters as `progressMatrix`): only that page's rows are read, and their manuals counted. */
export async function progressMatrixPage(
  app: Pick<FastifyInstance, 'db' | 'formEntries'>,
  eventId: number,
  definitions: FormDefinition[],
  options: MatrixOptions & { page: { page?: number; limit?: number } },
): Promise<ProgressMatrixPage> {
  const { page: request, ...rest } = options;
  const { rows, total, page, ...matrix } = await progressStates(app, eventId, definitions, rest, request);
  return { ...matrix, rows: await withManuals(app.db, rows), total, page: page!.page, limit: page!.limit };
}
