import { LEAD_SCANNER_ROLES } from '../../../engine/leads';
import type { TagDefinition } from '../../../engine/schemas/custom-tag';
import type { Database } from '../../db/schema';
import { AppError } from '../../lib/app-error';
import { eventOf } from '../../plugins/auth';
import type { AuthContext } from '../../plugins/sessions';
import type { LeadScope } from './query';
import type { Kysely } from 'kysely';

// What the leads' route files share: who may use them, the OpenAPI tag, and the caller's scope.
// Every query is scoped to the caller's participation (and, for a team user, to the leads it
// scanned): another exhibitor's ids answer 404, like unknown ones.

/** Who uses the leads: the routes of the Leadgrab screens name them; the lead detail screen (Forms too, which a contractor holds) declares them in screens.yaml. */
export const ROLES = LEAD_SCANNER_ROLES;
export const TAGS = ['leads'];

export function scopeOf(auth: AuthContext): LeadScope {
  if (!auth.participation) throw new AppError('notFound');
  return {
    participationId: auth.participation.id,
    offsetMinutes: eventOf(auth).utc_offset_minutes,
    onlyScannedBy: auth.user.role === 'team_user' ? auth.user.id : undefined,
  };
}

export async function tagsOf(db: Kysely<Database>, participationId: number): Promise<TagDefinition[]> {
  const rows = await db.selectFrom('custom_tags').select(['id', 'name', 'choices']).where('participation_id', '=', participationId).orderBy('position').orderBy('id').execute();
  return rows.map((row) => ({ id: row.id, name: row.name, choices: Array.isArray(row.choices) ? (row.choices as string[]) : [] }));
}
