import type { Kysely } from 'kysely';
import type { ExhibitorInput } from '../../../engine/schemas/exhibitor';
import type { FieldProblems } from '../../../engine/organiser-events';
import { FORM_DEADLINE_PREFIX } from '../../../engine/forms/definitions';
import type { Database, EventRow } from '../../db/schema';
import { hashPassword } from '../../lib/passwords';
import { newToken } from '../../lib/tokens';

// An exhibitor's account in one event — the company (exhibitors, by the organisation's
// code), its participation (booth, modules, flags, status), its main login and its deadline and
// quota overrides as rows. The console and the import store accounts through these functions.

export interface StoredAccount {
  participationId: number;
  exhibitorId: number;
  userId: number;
}

/** The columns an account is read from (participation, company, main login). */
export interface AccountRow {
  booth_num: string;
  displayed_modules: unknown;
  flags: unknown;
  code: string | null;
  name: string;
  legal_name: string;
  logo_url: string;
  login: string | null;
  email: string | null;
  display_name: string | null;
}

/** A stored account as the organiser edits it, its overrides given. */
export function accountOf(row: AccountRow, quotas: Record<string, number>, deadlines: Record<string, string>): ExhibitorInput {
  return {
    code: row.code ?? '',
    name: row.name,
    legalName: row.legal_name,
    boothNum: row.booth_num,
    logoUrl: row.logo_url,
    account: row.login ?? '',
    email: row.email ?? '',
    contactName: row.display_name ?? '',
    modules: row.displayed_modules as string[],
    flags: row.flags as Record<string, boolean>,
    quotas,
    deadlines,
  };
}

/** The account as the organiser edits it (what the audit log records as before/after). */
export async function readAccount(db: Kysely<Database>, participationId: number): Promise<(ExhibitorInput & { status: 'active' | 'disabled'; userId: number | null }) | undefined> {
  const row = await db
    .selectFrom('participations')
    .innerJoin('exhibitors', 'exhibitors.id', 'participations.exhibitor_id')
    .leftJoin('users', (join) => join.onRef('users.participation_id', '=', 'participations.id').on('users.role', '=', 'exhibitor'))
    .select([
      'participations.booth_num',
      'participations.displayed_modules',
      'participations.flags',
      'participations.status',
      'exhibitors.code',
      'exhibitors.name',
      'exhibitors.legal_name',
      'exhibitors.logo_url',
      'users.id as user_id',
      'users.login',
      'users.email',
      'users.display_name',
    ])
    .where('participations.id', '=', participationId)
    .orderBy('users.id')
    .executeTakeFirst();
  if (!row) return undefined;
  const [deadlines, quotas] = await Promise.all([
    // The exhibitor's deadlines by name; a form reopened for it keeps its own (reopen's rows).
    db.selectFrom('deadlines').select(['name', 'due_at']).where('participation_id', '=', participationId).where('name', 'not like', `${FORM_DEADLINE_PREFIX}%`).execute(),
    db.selectFrom('quotas').select(['name', 'value']).where('participation_id', '=', participationId).execute(),
  ]);
  return {
    ...accountOf(row, Object.fromEntries(quotas.map((q) => [q.name, q.value])), Object.fromEntries(deadlines.map((d) => [d.name, new Date(d.due_at).toISOString()]))),
    status: row.status,
    userId: row.user_id,
  };
}

/** What in the database clashes with the input: booth, code, account ID (field → message key). */
export async function conflicts(db: Kysely<Database>, organisationId: number, eventId: number, input: ExhibitorInput, participationId: number | null): Promise<FieldProblems> {
  const problems: FieldProblems = {};
  if (input.boothNum !== '') {
    let booth = db.selectFrom('participations').select('id').where('event_id', '=', eventId).where('booth_num', '=', input.boothNum);
    if (participationId !== null) booth = booth.where('id', '<>', participationId);
    if (await booth.executeTakeFirst()) problems.boothNum = 'organiser.validation.boothTaken';
  }
  let code = db
    .selectFrom('exhibitors')
    .innerJoin('participations', 'participations.exhibitor_id', 'exhibitors.id')
    .select('participations.id')
    .where('exhibitors.organisation_id', '=', organisationId)
    .where('exhibitors.code', '=', input.code)
    .where('participations.event_id', '=', eventId);
  if (participationId !== null) code = code.where('participations.id', '<>', participationId);
  if (await code.executeTakeFirst()) problems.code = 'organiser.validation.exhibitorCodeTaken';
  let account = db.selectFrom('users').select('id').where('login_key', '=', input.account.toLowerCase());
  if (participationId !== null)
    account = account.where((eb) => eb.or([eb('participation_id', 'is', null), eb('participation_id', '<>', participationId), eb('role', '<>', 'exhibitor')]));
  if (await account.executeTakeFirst()) problems.account = 'organiser.validation.accountTaken';
  return problems;
}

async function writeOverrides(db: Kysely<Database>, eventId: number, participationId: number, input: ExhibitorInput): Promise<void> {
  await db.deleteFrom('deadlines').where('participation_id', '=', participationId).where('name', 'not like', `${FORM_DEADLINE_PREFIX}%`).execute();
  await db.deleteFrom('quotas').where('participation_id', '=', participationId).execute();
  const deadlines = Object.entries(input.deadlines).map(([name, at]) => ({ event_id: eventId, participation_id: participationId, name, due_at: new Date(at) }));
  const quotas = Object.entries(input.quotas).map(([name, value]) => ({ event_id: eventId, participation_id: participationId, name, value }));
  if (deadlines.length > 0) await db.insertInto('deadlines').values(deadlines).execute();
  if (quotas.length > 0) await db.insertInto('quotas').values(quotas).execute();
}

/** A hash nobody knows the password of: the exhibitor sets its own through the activation link. */
let unknownPasswordHash: Promise<string> | undefined;
const lockedPasswordHash = () => (unknownPasswordHash ??= hashPassword(newToken()));

async function insertMainUser(db: Kysely<Database>, eventId: number, participationId: number, input: ExhibitorInput): Promise<number> {
  const user = await db
    .insertInto('users')
    .values({
      login: input.account,
      login_key: input.account.toLowerCase(),
      email: input.email,
      display_name: input.contactName.trim() || input.name,
      password_hash: await lockedPasswordHash(),
      role: 'exhibitor',
      participation_id: participationId,
      event_id: eventId,
      organisation_id: null,
      status: 'active',
      lead_quota: null,
      created_by: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return user.id;
}

/** Creates the account in the event (the company is reused when the organisation knows its code). */
export async function createAccount(db: Kysely<Database>, organisationId: number, event: EventRow, input: ExhibitorInput): Promise<StoredAccount> {
  const known = await db.selectFrom('exhibitors').select('id').where('organisation_id', '=', organisationId).where('code', '=', input.code).executeTakeFirst();
  const company = { name: input.name, legal_name: input.legalName, logo_url: input.logoUrl };
  const exhibitorId = known
    ? (await db.updateTable('exhibitors').set(company).where('id', '=', known.id).returning('id').executeTakeFirstOrThrow()).id
    : (
        await db
          .insertInto('exhibitors')
          .values({ ...company, organisation_id: organisationId, code: input.code })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id;
  const participation = await db
    .insertInto('participations')
    .values({ exhibitor_id: exhibitorId, event_id: event.id, booth_num: input.boothNum, displayed_modules: JSON.stringify(input.modules), flags: JSON.stringify(input.flags) })
    .returning('id')
    .executeTakeFirstOrThrow();
  const userId = await insertMainUser(db, event.id, participation.id, input);
  await writeOverrides(db, event.id, participation.id, input);
  return { participationId: participation.id, exhibitorId, userId };
}

/** Changes every field of an existing account of the event. */
export async function updateAccount(db: Kysely<Database>, event: EventRow, participationId: number, input: ExhibitorInput): Promise<StoredAccount> {
  const participation = await db
    .updateTable('participations')
    .set({ booth_num: input.boothNum, displayed_modules: JSON.stringify(input.modules), flags: JSON.stringify(input.flags) })
    .where('id', '=', participationId)
    .returning('exhibitor_id')
    .executeTakeFirstOrThrow();
  await db
    .updateTable('exhibitors')
    .set({ name: input.name, legal_name: input.legalName, logo_url: input.logoUrl, code: input.code })
    .where('id', '=', participation.exhibitor_id)
    .execute();
  const main = await db.selectFrom('users').select('id').where('participation_id', '=', participationId).where('role', '=', 'exhibitor').orderBy('id').executeTakeFirst();
  let userId: number;
  if (main) {
    await db
      .updateTable('users')
      .set({ login: input.account, login_key: input.account.toLowerCase(), email: input.email, display_name: input.contactName.trim() || input.name })
      .where('id', '=', main.id)
      .execute();
    userId = main.id;
  } else userId = await insertMainUser(db, event.id, participationId, input);
  await writeOverrides(db, event.id, participationId, input);
  return { participationId, exhibitorId: participation.exhibitor_id, userId };
}
