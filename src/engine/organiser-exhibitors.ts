import { emailProblem, loginProblem } from './members';
import { type EventVocabulary, type FieldProblems, logoAddress } from './organiser-events';
import type { ExhibitorInput } from './schemas/exhibitor';

// O2 (spec §3): an exhibitor's account as the organiser sets it — in the console and
// in an import row alike. Deadline overrides are instants; they may not fall after the show.

/**
 * O2: a new exhibitor account before anything is filled in: the event's default modules and flags,
 * no quota or deadline of its own (the event's apply). The organiser's form and the import both
 * start from it.
 */
export function newExhibitorInput(eventDefaults: { modules: readonly string[]; flags: Readonly<Record<string, boolean>> }): ExhibitorInput {
  return {
    code: '',
    name: '',
    legalName: '',
    boothNum: '',
    logoUrl: '',
    account: '',
    email: '',
    contactName: '',
    modules: [...eventDefaults.modules],
    flags: { ...eventDefaults.flags },
    quotas: {},
    deadlines: {},
  };
}

export const EXHIBITOR_CODE_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,39}$/;
export const NAME_MAX = 200;

/** A spreadsheet formula smuggled into a cell (CSV injection): refused wherever text is stored. */
export function isFormulaText(value: string): boolean {
  return value.startsWith('=');
}

export function exhibitorProblems(input: ExhibitorInput, vocabulary: EventVocabulary, showEndsAt: Date | null): FieldProblems {
  const problems: FieldProblems = {};
  const add = (field: string, key: string) => {
    if (!(field in problems)) problems[field] = key;
  };
  for (const field of ['code', 'name', 'legalName', 'boothNum', 'logoUrl', 'account', 'email', 'contactName'] as const) {
    if (isFormulaText(input[field])) add(field, 'organiser.validation.formula');
  }
  if (!EXHIBITOR_CODE_PATTERN.test(input.code)) add('code', 'organiser.validation.exhibitorCode');
  if (!input.name.trim()) add('name', 'organiser.validation.exhibitorNameRequired');
  else if (input.name.length > NAME_MAX) add('name', 'organiser.validation.tooLong');
  if (input.legalName.length > NAME_MAX) add('legalName', 'organiser.validation.tooLong');
  if (input.boothNum.length > 40) add('boothNum', 'organiser.validation.tooLong');
  if (input.logoUrl !== '' && !logoAddress(input.logoUrl)) add('logoUrl', 'organiser.validation.url');
  if (loginProblem(input.account)) add('account', 'errors.memberLoginInvalid');
  if (emailProblem(input.email)) add('email', 'errors.emailInvalid');
  for (const module of input.modules) if (!vocabulary.modules.includes(module)) add('modules', 'organiser.validation.unknownModule');
  for (const flag of Object.keys(input.flags)) if (!vocabulary.flags.includes(flag)) add('flags', 'organiser.validation.unknownName');
  for (const [name, value] of Object.entries(input.quotas)) {
    if (!vocabulary.quotaNames.includes(name)) add(`quotas.${name}`, 'organiser.validation.unknownName');
    else if (!Number.isInteger(value) || value < 0) add(`quotas.${name}`, 'organiser.validation.quota');
  }
  for (const [name, value] of Object.entries(input.deadlines)) {
    const at = Date.parse(value);
    if (!vocabulary.deadlineNames.includes(name)) add(`deadlines.${name}`, 'organiser.validation.unknownName');
    else if (Number.isNaN(at)) add(`deadlines.${name}`, 'organiser.validation.dateTime');
    else if (showEndsAt && at > showEndsAt.getTime()) add(`deadlines.${name}`, 'organiser.validation.deadlineAfterShow');
  }
  return problems;
}
