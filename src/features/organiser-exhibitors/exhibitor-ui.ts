import type { UiSchema } from '@rjsf/utils';
import type { TFunction } from 'i18next';
import { withUiOptions } from '../../components/form-runtime/SchemaForm';
import type { ApiData } from '../../lib/typed-api';

// Spec §3, O2: how the exhibitor's edit page shows the exhibitor schema
// (engine/schemas/exhibitor.ts) with the form runtime. A property the schema gains shows in the
// account's section ("*") without a change here.

type Vocabulary = ApiData<'GET', '/organiser/vocabulary'>;

const text = (field: string, markRequired = false) => ({ 'ui:title': `organiser.import.columns.${field}`, 'ui:options': { markRequired } });

/** The exhibitor's UI schema, apart from what depends on the vocabulary (exhibitorUi). */
export const EXHIBITOR_UI: UiSchema = {
  'ui:order': ['code', 'name', 'legalName', 'boothNum', 'logoUrl', 'account', 'email', 'contactName', '*', 'modules', 'flags', 'quotas', 'deadlines'],
  'ui:globalOptions': { markRequired: false },
  'ui:options': {
    sections: [
      { fields: ['code', 'name', 'legalName', 'boothNum', 'logoUrl', 'account', 'email', 'contactName', '*'], columns: 2 },
      { title: 'organiser.event.modules', fields: ['modules', 'flags'] },
      // Empty quota and deadline fields mean "the event's value"; a filled one is this exhibitor's override.
      { title: 'organiser.exhibitors.overrides', help: 'organiser.exhibitors.overridesHelp', fields: ['quotas', 'deadlines'] },
    ],
  },
  code: text('code', true),
  name: text('name', true),
  legalName: text('legalName'),
  boothNum: text('boothNum'),
  logoUrl: text('logoUrl'),
  account: text('account', true),
  email: text('email', true),
  contactName: text('contactName'),
  modules: { 'ui:field': 'checkList' },
  flags: { 'ui:field': 'flagGroups' },
  quotas: { 'ui:field': 'namedValues', 'ui:options': { kind: 'integer', columns: 4 } },
  deadlines: { 'ui:field': 'namedValues', 'ui:options': { kind: 'eventDateTime' } },
};

/** The exhibitor's UI schema for this vocabulary (modules, flags, quota and deadline names) and the event's UTC offset. */
export function exhibitorUi(vocabulary: Vocabulary, offsetMinutes: number, t: TFunction): UiSchema {
  const named = (name: string) => t(`organiser.names.${name}`);
  return {
    ...EXHIBITOR_UI,
    modules: withUiOptions(EXHIBITOR_UI.modules, { choices: vocabulary.modules.map((module) => ({ value: module, label: module })) }),
    flags: withUiOptions(EXHIBITOR_UI.flags, { groups: Object.entries(vocabulary.flagGroups).map(([group, flags]) => ({ label: t(`organiser.flagGroups.${group}`), flags })) }),
    quotas: withUiOptions(EXHIBITOR_UI.quotas, { entries: vocabulary.quotaNames.map((name) => ({ name, label: named(name) })) }),
    deadlines: withUiOptions(EXHIBITOR_UI.deadlines, { offsetMinutes, entries: vocabulary.deadlineNames.map((name) => ({ name, label: named(name) })) }),
  };
}
