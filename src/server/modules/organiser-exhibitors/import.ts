import type { FromSchema } from 'json-schema-to-ts';
import type { Kysely } from 'kysely';
import { FORM_DEADLINE_PREFIX } from '../../../engine/forms/definitions';
import { LANGUAGES, type Language } from '../../../engine/language';
import { exhibitorProblems, isFormulaText, newExhibitorInput } from '../../../engine/organiser-exhibitors';
import type { ExhibitorInput } from '../../../engine/schemas/exhibitor';
import type { EventVocabulary } from '../../../engine/organiser-events';
import type { Database, EventRow } from '../../db/schema';
import { translate } from '../../lib/messages';
import { type AccountChange, type AccountRow, accountOf, changedParts, storeAccounts } from './accounts';
import type { SheetRows } from '../../lib/spreadsheet';

// Exhibitors from a spreadsheet. Headers are read in any of the four languages; every
// row is checked (the account rules, duplicates in the file, booths and account IDs taken in the
// database) and reported by row and column in the organiser's language. The good rows are stored
// in one transaction: a code the event already has updates that exhibitor, never a duplicate, and a
// row equal to what is stored is left alone (re-importing a file writes nothing). The rows are stored
// set-based, a handful of statements per import whatever its size (storeAccounts).

const TEXT_COLUMNS = ['code', 'name', 'legalName', 'boothNum', 'account', 'email', 'contactName', 'logoUrl'] as const;
const LIST_COLUMNS = ['modules', 'flags'] as const;
type TextColumn = (typeof TEXT_COLUMNS)[number];
/** Without these a file cannot say who is who. */
const REQUIRED_COLUMNS = ['code', 'name', 'email'] as const;

/** The import's report (dry run or commit), as its route answers it: this schema is the only description of it. */
export const importReportSchema = {
  type: 'object',
  properties: {
    dryRun: { type: 'boolean' },
    rows: { type: 'integer', description: 'Data rows read (empty rows skipped)' },
    good: { type: 'integer', description: 'Rows without a problem (stored on commit)' },
    created: { type: 'integer' },
    updated: { type: 'integer', description: 'Rows whose code the event already had and that change it' },
    unchanged: { type: 'integer', description: 'Rows whose code the event already had, equal to what is stored (nothing written)' },
    problems: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          row: { type: 'integer', description: "The spreadsheet's row number (1 = the headers)" },
          column: { type: 'string', description: "The column's header as the organiser reads it ('' for a whole row or file)" },
          problem: { type: 'string' },
          key: { type: 'string' },
        },
        required: ['row', 'column', 'problem', 'key'],
        additionalProperties: false,
      },
    },
  },
  required: ['dryRun', 'rows', 'good', 'created', 'updated', 'unchanged', 'problems'],
  additionalProperties: false,
} as const;

/** What the import finds and does; the route adds whether it was a dry run. */
export type ImportReport = Omit<FromSchema<typeof importReportSchema>, 'dryRun'>;
export type ImportProblem = ImportReport['problems'][number];

/** Column key → header text in a language (quota columns: "quota.<name>"). */
export function columnHeaders(language: Language, quotaNames: readonly string[]): Array<[string, string]> {
  return [
    ...[...TEXT_COLUMNS, ...LIST_COLUMNS].map((key) => [key, translate(language, `organiser.import.columns.${key}`)] as [string, string]),
    ...quotaNames.map(
      (name) => [`quota.${name}`, translate(language, 'organiser.import.columns.quota', { name: translate(language, `organiser.names.${name}`) })] as [string, string],
    ),
  ];
}

function headerIndex(quotaNames: readonly string[]): Map<string, string> {
  const index = new Map<string, string>();
  for (const language of LANGUAGES) for (const [key, header] of columnHeaders(language, quotaNames)) index.set(header.trim().toLowerCase(), key);
  for (const key of [...TEXT_COLUMNS, ...LIST_COLUMNS]) index.set(key.toLowerCase(), key);
  for (const name of quotaNames) index.set(`quota.${name}`.toLowerCase(), `quota.${name}`);
  return index;
}

const listOf = (cell: string) =>
  cell
    .split(/[;,\n]/)
    .map((item) => item.trim())
    .filter(Boolean);

interface Existing {
  participationId: number;
  exhibitorId: number;
  account: ExhibitorInput;
  row: AccountRow & { user_id: number | null; login_key: string | null };
  quotas: Record<string, number>;
}

/** Rows grouped by their participation. */
function byParticipation<T extends { participation_id: number | null }>(rows: readonly T[]): Map<number, T[]> {
  const groups = new Map<number, T[]>();
  for (const row of rows) {
    const group = groups.get(row.participation_id!);
    if (group) group.push(row);
    else groups.set(row.participation_id!, [row]);
  }
  return groups;
}

export async function importExhibitors(
  db: Kysely<Database>,
  options: { organisationId: number; event: EventRow; vocabulary: EventVocabulary; language: Language; rows: SheetRows; commit: boolean },
): Promise<ImportReport & { stored: Array<{ code: string; participationId: number; created: boolean }> }> {
  const { event, vocabulary, language } = options;
  const headers = columnHeaders(language, vocabulary.quotaNames);
  const headerOf = new Map(headers);
  const report: ImportReport = { rows: 0, good: 0, created: 0, updated: 0, unchanged: 0, problems: [] };
  const problem = (row: number, columnKey: string, key: string, params: Record<string, string | number> = {}) =>
    report.problems.push({ row, column: columnKey ? (headerOf.get(columnKey) ?? columnKey) : '', key, problem: translate(language, key, params) });

  const [headerRow = [], ...body] = options.rows;
  const index = headerIndex(vocabulary.quotaNames);
  const columns = headerRow.map((header) => index.get(header.trim().toLowerCase()) ?? null);
  headerRow.forEach((header, i) => {
    if (header && columns[i] === null)
      report.problems.push({ row: 1, column: header, key: 'organiser.import.unknownColumn', problem: translate(language, 'organiser.import.unknownColumn') });
  });
  const missing = REQUIRED_COLUMNS.filter((key) => !columns.includes(key));
  for (const key of missing) problem(1, key, 'organiser.import.missingColumn');
  if (missing.length > 0) return { ...report, stored: [] };

  // What the event already holds: accounts by code (a re-import updates them), booths, account IDs.
  const existingRows = await db
    .selectFrom('participations')
    .innerJoin('exhibitors', 'exhibitors.id', 'participations.exhibitor_id')
    .leftJoin('users', (join) => join.onRef('users.participation_id', '=', 'participations.id').on('users.role', '=', 'exhibitor'))
    .select([
      'participations.id',
      'participations.exhibitor_id',
      'participations.booth_num',
      'participations.displayed_modules',
      'participations.flags',
      'exhibitors.code',
      'exhibitors.name',
      'exhibitors.legal_name',
      'exhibitors.logo_url',
      'users.id as user_id',
      'users.login',
      'users.login_key',
      'users.email',
      'users.display_name',
    ])
    .where('participations.event_id', '=', event.id)
    // The main login is the account's first exhibitor login (as readAccount reads it).
    .orderBy('users.id')
    .execute();
  const quotaRows = await db
    .selectFrom('quotas')
    .select(['participation_id', 'name', 'value'])
    .where('event_id', '=', event.id)
    .where('participation_id', 'is not', null)
    .execute();
  const deadlineRows = await db
    .selectFrom('deadlines')
    .select(['participation_id', 'name', 'due_at'])
    .where('event_id', '=', event.id)
    .where('participation_id', 'is not', null)
    .where('name', 'not like', `${FORM_DEADLINE_PREFIX}%`)
    .execute();
  const quotasOf = byParticipation(quotaRows);
  const deadlinesOf = byParticipation(deadlineRows);
  const byCode = new Map<string, Existing>();
  const boothHolder = new Map<string, number>();
  const read = new Set<number>();
  for (const row of existingRows) {
    if (read.has(row.id)) continue;
    read.add(row.id);
    if (row.booth_num) boothHolder.set(row.booth_num.toLowerCase(), row.id);
    if (!row.code) continue;
    const quotas = Object.fromEntries((quotasOf.get(row.id) ?? []).map((q) => [q.name, q.value]));
    byCode.set(row.code.toLowerCase(), {
      participationId: row.id,
      exhibitorId: row.exhibitor_id,
      row,
      quotas,
      account: accountOf(row, quotas, Object.fromEntries((deadlinesOf.get(row.id) ?? []).map((d) => [d.name, new Date(d.due_at).toISOString()]))),
    });
  }

  interface Candidate {
    row: number;
    input: ExhibitorInput;
    existing: Existing | undefined;
  }
  const candidates: Candidate[] = [];
  body.forEach((cells, i) => {
    const rowNumber = i + 2;
    if (cells.every((cell) => cell === '')) return;
    report.rows++;
    const cell = (key: string) => {
      const at = columns.indexOf(key);
      return at < 0 ? '' : (cells[at] ?? '');
    };
    const before = report.problems.length;
    columns.forEach((key, at) => {
      if (key && isFormulaText(cells[at] ?? '') && !(TEXT_COLUMNS as readonly string[]).includes(key)) problem(rowNumber, key, 'organiser.validation.formula');
    });
    const existing = byCode.get(cell('code').toLowerCase());
    const base: ExhibitorInput = existing
      ? { ...existing.account, quotas: { ...existing.account.quotas } }
      : newExhibitorInput({ modules: event.default_modules, flags: event.default_flags });
    const input: ExhibitorInput = { ...base };
    for (const key of TEXT_COLUMNS) {
      if (!columns.includes(key)) continue;
      const value = cell(key);
      // Optional columns left empty keep what is stored; required ones are checked as given.
      if (value !== '' || (REQUIRED_COLUMNS as readonly string[]).includes(key)) input[key as TextColumn] = value;
    }
    if (!input.account) input.account = input.email;
    if (cell('modules')) input.modules = [...new Set(listOf(cell('modules')))];
    if (cell('flags')) {
      const on = listOf(cell('flags'));
      input.flags = Object.fromEntries([
        ...vocabulary.flags.map((flag) => [flag, on.includes(flag)] as const),
        ...on.filter((flag) => !vocabulary.flags.includes(flag)).map((flag) => [flag, true] as const),
      ]);
    }
    for (const name of vocabulary.quotaNames) {
      const value = cell(`quota.${name}`);
      if (value === '' || isFormulaText(value)) continue;
      input.quotas[name] = /^\d+$/.test(value) ? Number(value) : -1;
    }
    const found = exhibitorProblems(input, vocabulary, event.ends_at);
    for (const [field, key] of Object.entries(found)) {
      const column = field.startsWith('quotas.') ? `quota.${field.slice('quotas.'.length)}` : field;
      problem(rowNumber, column, key);
    }
    if (report.problems.length === before) candidates.push({ row: rowNumber, input, existing });
    else candidates.push({ row: -rowNumber, input, existing });
  });

  // Duplicates inside the file: every row after the first holding a code, booth or account ID.
  const seen = { code: new Map<string, number>(), boothNum: new Map<string, number>(), account: new Map<string, number>() };
  for (const candidate of candidates) {
    const rowNumber = Math.abs(candidate.row);
    for (const key of ['code', 'boothNum', 'account'] as const) {
      const value = candidate.input[key].toLowerCase();
      if (!value) continue;
      const first = seen[key].get(value);
      if (first !== undefined) {
        problem(rowNumber, key, 'organiser.import.duplicateInFile', { row: first });
        candidate.row = -rowNumber;
      } else seen[key].set(value, rowNumber);
    }
  }
  // Against the database: a booth held by another exhibitor of the event, an account ID in use.
  const accounts = candidates.map((c) => c.input.account.toLowerCase()).filter(Boolean);
  const holders = new Map<string, { participation_id: number | null; role: string }>();
  for (let at = 0; at < accounts.length; at += 1000) {
    const chunk = accounts.slice(at, at + 1000);
    for (const user of await db.selectFrom('users').select(['login_key', 'participation_id', 'role']).where('login_key', 'in', chunk).execute()) holders.set(user.login_key, user);
  }
  for (const candidate of candidates) {
    const rowNumber = Math.abs(candidate.row);
    const own = candidate.existing?.participationId ?? null;
    const booth = candidate.input.boothNum.toLowerCase();
    const boothOwner = booth ? boothHolder.get(booth) : undefined;
    if (boothOwner !== undefined && boothOwner !== own) {
      problem(rowNumber, 'boothNum', 'organiser.validation.boothTaken');
      candidate.row = -rowNumber;
    }
    const holder = holders.get(candidate.input.account.toLowerCase());
    if (holder && !(own !== null && holder.participation_id === own && holder.role === 'exhibitor')) {
      problem(rowNumber, 'account', 'organiser.validation.accountTaken');
      candidate.row = -rowNumber;
    }
  }
  report.problems.sort((a, b) => a.row - b.row);
  const good = candidates.filter((candidate) => candidate.row > 0);
  report.good = good.length;
  const creates = good.filter((c) => !c.existing).map((c) => c.input);
  const changes: AccountChange[] = [];
  for (const { existing, input } of good) {
    if (!existing) continue;
    const parts = changedParts(existing.row, existing.quotas, input);
    if (Object.values(parts).some(Boolean))
      changes.push({ participationId: existing.participationId, exhibitorId: existing.exhibitorId, userId: existing.row.user_id, input, parts });
  }
  report.created = creates.length;
  report.updated = changes.length;
  report.unchanged = good.length - creates.length - changes.length;
  if (!options.commit || (creates.length === 0 && changes.length === 0)) return { ...report, stored: [] };

  const created = await storeAccounts(db, options.organisationId, event, creates, changes);
  const stored = [
    ...creates.map((input, at) => ({ code: input.code, participationId: created[at]!, created: true })),
    ...changes.map((change) => ({ code: change.input.code, participationId: change.participationId, created: false })),
  ];
  return { ...report, stored };
}
