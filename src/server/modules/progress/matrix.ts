import { sql, type Kysely } from 'kysely';
import { formStatus, type ApprovalStatus, type FormDefinition, type FormStatus } from '../../../engine/forms/definitions';

type EntryState = 'draft' | 'submitted';
import type { Database } from '../../db/schema';
import { loadParticipationSettings } from '../../lib/participation-settings';

// Issue 9, progress: every exhibitor of one event × every participation form, with the status
// the exhibitor itself sees (formStatus over the submission and the effective deadline).

/** What counts as done for "mandatory forms missing": submitted, waiting or approved. */
const DONE: ReadonlySet<FormStatus> = new Set(['submitted', 'pendingApproval', 'approved']);

export interface ProgressRow {
  participationId: number;
  exhibitor: string;
  code: string | null;
  boothNum: string;
  statuses: Record<string, FormStatus>;
  missingMandatory: string[];
  /** Issue 10: manuals needing acknowledgement that this exhibitor acknowledged. */
  manualsAcknowledged: number;
  /** The effective deadlines by name (with `withDeadlines`; reminders need them). */
  deadlines?: Record<string, Date>;
}

export interface ProgressMatrix {
  /** Issue 10: published manuals of the event that need acknowledging. */
  manualsToAcknowledge: number;
  forms: Array<{ id: string; code: string; title: string; mandatory: boolean; counts: Record<FormStatus, number> }>;
  rows: ProgressRow[];
}

const emptyCounts = (): Record<FormStatus, number> => ({ notStarted: 0, draft: 0, submitted: 0, pendingApproval: 0, approved: 0, rejected: 0, closed: 0 });

/**
 * The matrix of the event's active exhibitors (by name). Counts are over every exhibitor; with
 * `missingOnly` the rows are those with at least one mandatory form not done.
 */
export async function progressMatrix(db: Kysely<Database>, eventId: number, definitions: FormDefinition[], options: { missingOnly?: boolean; now?: Date; withDeadlines?: boolean } = {}): Promise<ProgressMatrix> {
  const now = options.now ?? new Date();
  // One row per exhibitor with its entries folded into JSON (form id → [status, approval]):
  // 2,000 rows to read instead of one per entry.
  const participations = await db
    .selectFrom('participations')
    .innerJoin('exhibitors', 'exhibitors.id', 'participations.exhibitor_id')
    .select([
      'participations.id',
      'exhibitors.name',
      'exhibitors.code',
      'participations.booth_num',
      sql<Record<string, [EntryState, ApprovalStatus | null]> | null>`(select jsonb_object_agg(fe.form_id, jsonb_build_array(fe.status, fe.approval_status)) from form_entries fe where fe.participation_id = participations.id)`.as('entries'),
      sql<number>`(select count(*)::int from manual_status ms join content c on c.id = ms.content_id where ms.participation_id = participations.id and ms.acknowledged_at is not null and c.ack_required and c.kind = 'manual')`.as('manuals_acknowledged'),
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
    return state ? { status: state[0], approval_status: state[1] } : null;
  };
  const forms = definitions.map((d) => ({ id: d.id, code: d.code, title: d.title, mandatory: d.mandatory, counts: emptyCounts() }));
  const rows: ProgressRow[] = [];
  for (const participation of participations) {
    const deadlines = settings.get(participation.id)?.deadlines ?? {};
    const statuses: Record<string, FormStatus> = {};
    const missingMandatory: string[] = [];
    definitions.forEach((definition, index) => {
      const status = formStatus(entryOf(participation, definition.id), deadlines[definition.deadline] ?? null, now);
      statuses[definition.id] = status;
      forms[index]!.counts[status] += 1;
      if (definition.mandatory && !DONE.has(status)) missingMandatory.push(definition.id);
    });
    if (options.missingOnly && missingMandatory.length === 0) continue;
    rows.push({ participationId: participation.id, exhibitor: participation.name, code: participation.code, boothNum: participation.booth_num, statuses, missingMandatory, manualsAcknowledged: Number(participation.manuals_acknowledged ?? 0), ...(options.withDeadlines ? { deadlines } : {}) });
  }
  return { manualsToAcknowledge: Number(manuals.count), forms, rows };
}
