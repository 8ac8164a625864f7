import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { FromSchema } from 'json-schema-to-ts';
import { deadlineOfForm, FORM_STATUSES, formStatus, partStatus, type FormDefinition, type FormStatus } from '../../engine/forms/definitions';
import { sameProperties } from '../../engine/schemas/json-schema';
import { approvalPart, partsOf, partStates, type FormPart } from '../../engine/forms/parts';
import { loadParticipationSettings } from './participation-settings';

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

const emptyCounts = (): Record<FormStatus, number> => ({ notStarted: 0, draft: 0, submitted: 0, pendingApproval: 0, approved: 0, rejected: 0, closed: 0 });

/**
 * The matrix of the event's active exhibitors (by name). Counts are over every exhibitor; with
 * `missingOnly` the rows are those with at least one mandatory form not done.
 */
export async function progressMatrix(
  app: Pick<FastifyInstance, 'db' | 'formEntries'>,
  eventId: number,
  definitions: FormDefinition[],
  options: { missingOnly?: boolean; now?: Date; withDeadlines?: boolean; schemaOf?: (formId: string) => { properties?: Record<string, unknown> } } = {},
): Promise<ProgressMatrix> {
  const now = options.now ?? new Date();
  // Without the schema (reminders) the exhibitor's part has no fields of its own to look at: its
  // submission still counts, only "draft" vs "not started" of that part is not told apart.
  const partsByForm = new Map<string, FormPart[]>();
  for (const definition of definitions) {
    const parts = partsOf(definition, options.schemaOf?.(definition.id) ?? {});
    if (parts) partsByForm.set(definition.id, parts);
  }
  const partedIds = [...partsByForm.keys()];
  // One row per exhibitor with its entries folded into JSON (form id → [status, approval]):
  // 2,000 rows to read instead of one per entry.
  const { db } = app;
  const participations = await db
    .selectFrom('participations')
    .innerJoin('exhibitors', 'exhibitors.id', 'participations.exhibitor_id')
    .select([
      'participations.id',
      'exhibitors.name',
      'exhibitors.code',
      'participations.booth_num',
      app.formEntries.foldedOfParticipation(partedIds).as('entries'),
      sql<number>`(select count(*)::int from manual_status ms join content c on c.id = ms.content_id where ms.participation_id = participations.id and ms.acknowledged_at is not null and c.ack_required and c.kind = 'manual')`.as(
        'manuals_acknowledged',
      ),
    ])
    .where('participations.event_id', '=', eventId)
    .where('participations.status', '=', 'active')
    .orderBy('exhibitors.name')
    .orderBy('participations.id')
    .execute();
  const manuals = await db
    .selectFrom('content')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('event_id', '=', eventId)
    .where('kind', '=', 'manual')
    .where('ack_required', '=', true)
    .where('published_at', '<=', now)
    .executeTakeFirstOrThrow();
  const settings = await loadParticipationSettings(
    db,
    eventId,
    participations.map((p) => p.id),
  );
  const entryOf = (participation: (typeof participations)[number], formId: string) => {
    const state = participation.entries?.[formId];
    if (!state) return null;
    const [status, approval, parts, submittedAt, keys] = state;
    return { status, approval_status: approval, parts, submitted_at: submittedAt, submitted_by: null, data: keys ? Object.fromEntries(keys.map((key) => [key, true])) : null };
  };
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
  /**
   * A form with parts as a whole: done (the approval part's decision, else submitted) when every
   * part is submitted; otherwise closed past the deadline, a draft once any part has begun.
   */
  const partedStatus = (statuses: FormStatus[], approvalStatus: FormStatus | undefined, deadline: Date | null): FormStatus => {
    if (statuses.every((status) => DONE.has(status) || status === 'rejected')) return approvalStatus ?? 'submitted';
    if (deadline && deadline.getTime() < now.getTime()) return 'closed';
    return statuses.some((status) => status !== 'notStarted' && status !== 'closed') ? 'draft' : 'notStarted';
  };
  const rows: ProgressRow[] = [];
  for (const participation of participations) {
    const deadlines = settings.get(participation.id)?.deadlines ?? {};
    const statuses: Record<string, FormStatus> = {};
    const partStatuses: Record<string, Record<string, FormStatus>> = {};
    const missingMandatory: string[] = [];
    definitions.forEach((definition, index) => {
      const entry = entryOf(participation, definition.id);
      const deadline = deadlineOfForm(deadlines, definition);
      const parts = partsByForm.get(definition.id);
      let status: FormStatus;
      if (parts) {
        const states = partStates(entry, parts);
        const approvalId = approvalPart(parts, definition.approval)?.id;
        const byPart = Object.fromEntries(parts.map((part) => [part.id, partStatus(part, states, entry, approvalId, deadline, now)]));
        partStatuses[definition.id] = byPart;
        status = partedStatus(Object.values(byPart), approvalId ? byPart[approvalId] : undefined, deadline);
      } else {
        status = formStatus(entry, deadline, now);
      }
      statuses[definition.id] = status;
      forms[index]!.counts[status] += 1;
      if (definition.mandatory && !DONE.has(status)) missingMandatory.push(definition.id);
    });
    if (options.missingOnly && missingMandatory.length === 0) continue;
    rows.push({
      participationId: participation.id,
      exhibitor: participation.name,
      code: participation.code,
      boothNum: participation.booth_num,
      statuses,
      parts: partStatuses,
      missingMandatory,
      manualsAcknowledged: Number(participation.manuals_acknowledged ?? 0),
      ...(options.withDeadlines ? { deadlines } : {}),
    });
  }
  return { manualsToAcknowledge: Number(manuals.count), forms, rows };
}
