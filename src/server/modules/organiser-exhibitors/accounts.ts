import { sql, type Kysely } from 'kysely';
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

/** Which parts of a stored account a change writes (a part left equal is not written at all). */
export interface AccountParts {
  participation: boolean;
  exhibitor: boolean;
  /** The main login's fields, or the main login itself when the account has none yet. */
  user: boolean;
  quotas: boolean;
}

/** A change to an existing account of the event, the parts that differ from what is stored named. */
export interface AccountChange {
  participationId: number;
  exhibitorId: number;
  /** The main login; null when the account has none (one is made). */
  userId: number | null;
  input: ExhibitorInput;
  parts: AccountParts;
}

/** Flags as one text, whatever order their keys come in (jsonb keeps its own order). */
const flagsText = (flags: unknown) => JSON.stringify(Object.entries((flags ?? {}) as Record<string, boolean>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
const quotasText = (quotas: Record<string, number>) => flagsText(quotas);

/** The parts of a stored account (its row as read with the main login's id and key, its quotas) that `input` would change. */
export function changedParts(row: AccountRow & { user_id: number | null; login_key: string | null }, quotas: Record<string, number>, input: ExhibitorInput): AccountParts {
  return {
    participation: row.booth_num !== input.boothNum || JSON.stringify(row.displayed_modules) !== JSON.stringify(input.modules) || flagsText(row.flags) !== flagsText(input.flags),
    exhibitor: row.name !== input.name || row.legal_name !== input.legalName || row.logo_url !== input.logoUrl || row.code !== input.code,
    user:
      row.user_id === null || row.login !== input.account || row.login_key !== input.account.toLowerCase() || row.email !== input.email || row.display_name !== mainUserName(input),
    quotas: quotasText(quotas) !== quotasText(input.quotas),
  };
}

const mainUserName = (input: ExhibitorInput) => input.contactName.trim() || input.name;

/** Rows handed to the database as one jsonb parameter and read back with jsonb_to_recordset. */
const recordset = (rows: unknown[]) => sql`jsonb_to_recordset(${JSON.stringify(rows)}::jsonb)`;

/**
 * Stores many accounts of one event with a handful of statements whatever their number (one per
 * table and kind of change, never one per account): the changed parts of existing accounts, then the
 * new accounts (a company the organisation knows by its code is reused, as createAccount does).
 * Every account is assumed checked (booths, codes and account IDs free). Returns the new
 * participations' ids in the order of `creates`.
 */
export async function storeAccounts(
  db: Kysely<Database>,
  organisationId: number,
  event: EventRow,
  creates: readonly ExhibitorInput[],
  changes: readonly AccountChange[],
): Promise<number[]> {
  const of = (part: keyof AccountParts) => changes.filter((change) => change.parts[part]);
  const participations = of('participation').map(({ participationId, input }) => ({ id: participationId, booth: input.boothNum, modules: input.modules, flags: input.flags }));
  if (participations.length > 0)
    await sql`update participations as p set booth_num = x.booth, displayed_modules = x.modules, flags = x.flags
      from ${recordset(participations)} as x(id bigint, booth text, modules jsonb, flags jsonb) where p.id = x.id`.execute(db);
  const companies = of('exhibitor').map(({ exhibitorId, input }) => ({ id: exhibitorId, name: input.name, legal: input.legalName, logo: input.logoUrl, code: input.code }));
  if (companies.length > 0)
    await sql`update exhibitors as e set name = x.name, legal_name = x.legal, logo_url = x.logo, code = x.code
      from ${recordset(companies)} as x(id bigint, name text, legal text, logo text, code text) where e.id = x.id`.execute(db);
  const login = (input: ExhibitorInput) => ({ login: input.account, key: input.account.toLowerCase(), email: input.email, display: mainUserName(input) });
  const logins = of('user').filter((change) => change.userId !== null);
  if (logins.length > 0)
    await sql`update users as u set login = x.login, login_key = x.key, email = x.email, display_name = x.display
      from ${recordset(logins.map(({ userId, input }) => ({ id: userId, ...login(input) })))} as x(id bigint, login text, key text, email text, display text)
      where u.id = x.id`.execute(db);
  const quotaChanges = of('quotas');
  if (quotaChanges.length > 0)
    await sql`delete from quotas where participation_id in (select x.id from ${recordset(quotaChanges.map((change) => ({ id: change.participationId })))} as x(id bigint))`.execute(
      db,
    );

  let created: number[] = [];
  if (creates.length > 0) {
    const companyRows = await sql<{ id: number; code: string }>`insert into exhibitors (organisation_id, code, name, legal_name, logo_url)
      select ${organisationId}, x.code, x.name, x.legal, x.logo
      from ${recordset(creates.map((input) => ({ code: input.code, name: input.name, legal: input.legalName, logo: input.logoUrl })))} as x(code text, name text, legal text, logo text)
      on conflict (organisation_id, code) where code is not null do update set name = excluded.name, legal_name = excluded.legal_name, logo_url = excluded.logo_url
      returning id, code`.execute(db);
    const companyOf = new Map(companyRows.rows.map((row) => [row.code, Number(row.id)]));
    const participationRows = await sql<{ id: number; exhibitor_id: number }>`insert into participations (exhibitor_id, event_id, booth_num, displayed_modules, flags)
      select x.exhibitor, ${event.id}, x.booth, x.modules, x.flags
      from ${recordset(creates.map((input) => ({ exhibitor: companyOf.get(input.code), booth: input.boothNum, modules: input.modules, flags: input.flags })))}
        as x(exhibitor bigint, booth text, modules jsonb, flags jsonb)
      returning id, exhibitor_id`.execute(db);
    // A company takes part in an event once, so its id names its new participation.
    const participationOf = new Map(participationRows.rows.map((row) => [Number(row.exhibitor_id), Number(row.id)]));
    created = creates.map((input) => participationOf.get(companyOf.get(input.code)!)!);
  }
  const newAccounts = creates.map((input, at) => ({ participationId: created[at]!, input }));
  const newLogins = [...newAccounts, ...of('user').filter((change) => change.userId === null)];
  if (newLogins.length > 0)
    await sql`insert into users (login, login_key, email, display_name, password_hash, role, participation_id, event_id, organisation_id, status, lead_quota, created_by)
      select x.login, x.key, x.email, x.display, ${await lockedPasswordHash()}, 'exhibitor', x.participation, ${event.id}, null, 'active', null, null
      from ${recordset(newLogins.map(({ participationId, input }) => ({ participation: participationId, ...login(input) })))}
        as x(participation bigint, login text, key text, email text, display text)`.execute(db);
  const quotas = [...newAccounts, ...quotaChanges].flatMap(({ participationId, input }) =>
    Object.entries(input.quotas).map(([name, value]) => ({ participation: participationId, name, value })),
  );
  if (quotas.length > 0)
    await sql`insert into quotas (event_id, participation_id, name, value)
      select ${event.id}, x.participation, x.name, x.value from ${recordset(quotas)} as x(participation bigint, name text, value integer)`.execute(db);
  const deadlines = newAccounts.flatMap(({ participationId, input }) =>
    Object.entries(input.deadlines).map(([name, at]) => ({ participation: participationId, name, at: new Date(at).toISOString() })),
  );
  if (deadlines.length > 0)
    await sql`insert into deadlines (event_id, participation_id, name, due_at)
      select ${event.id}, x.participation, x.name, x.at from ${recordset(deadlines)} as x(participation bigint, name text, at timestamptz)`.execute(db);
  return created;
}
