import type { UiSchema } from '@rjsf/utils';
import type { TFunction } from 'i18next';
import { withUiOptions } from '../../components/form-runtime/SchemaForm';
import { LANGUAGE_OPTIONS, LANGUAGES } from '../../engine/language';
import { DATE_ORDERS, formatEventDay } from '../../engine/locale-format';
import { currentLanguage } from '../../lib/i18n';
import { UTC_OFFSET_RANGE } from '../../engine/organiser-events';
import type { EventInput } from '../../engine/schemas/event';
import { formatOffset } from '../../engine/time';
import type { Vocabulary } from './api';

// O2: how the event's edit page shows the event schema (engine/schemas/event.ts) with the form
// runtime: texts as locale keys, sections, and the console's fields. A property the schema gains
// shows in the General section ("*") without a change here.

/** The event's UI schema, apart from what depends on the vocabulary and the data (eventUi). */
export const EVENT_UI: UiSchema = {
  'ui:order': [
    'code',
    'defaultLanguage',
    'names',
    'venue',
    'utcOffsetMinutes',
    'dateOrder',
    'url',
    'logoUrl',
    'termsUrl',
    'supportEmail',
    '*',
    'showDays',
    'deadlines',
    'currency',
    'settings',
    'defaultModules',
    'defaultFlags',
    'defaultQuotas',
    'reminderDays',
  ],
  'ui:globalOptions': { markRequired: false },
  'ui:options': {
    sections: [
      {
        title: 'organiser.event.general',
        fields: ['code', 'defaultLanguage', 'names', 'venue', 'utcOffsetMinutes', 'dateOrder', 'url', 'logoUrl', 'termsUrl', 'supportEmail', '*'],
        columns: 2,
      },
      { title: 'organiser.event.showDays', fields: ['showDays'] },
      { title: 'organiser.event.deadlines', help: 'organiser.event.deadlinesHelp', fields: ['deadlines'] },
      { title: 'organiser.event.formSettings', help: 'organiser.event.formSettingsHelp', fields: ['currency', 'settings'], columns: 3 },
      { title: 'organiser.event.defaults', fields: ['defaultModules', 'defaultFlags', 'defaultQuotas', 'reminderDays'] },
    ],
  },
  code: { 'ui:title': 'organiser.event.code', 'ui:help': 'organiser.event.codeHelp', 'ui:options': { markRequired: true } },
  defaultLanguage: {
    'ui:title': 'organiser.event.defaultLanguage',
    'ui:enumNames': LANGUAGES.map((code) => LANGUAGE_OPTIONS.find((option) => option.code === code)?.label ?? code),
  },
  names: { 'ui:field': 'namedValues', 'ui:options': { wide: true } },
  venue: { 'ui:title': 'organiser.event.venue' },
  utcOffsetMinutes: { 'ui:title': 'organiser.event.utcOffset', 'ui:widget': 'choice' },
  dateOrder: { 'ui:title': 'organiser.event.dateOrder', 'ui:help': 'organiser.event.dateOrderHelp', 'ui:widget': 'choice' },
  url: { 'ui:title': 'organiser.event.url', 'ui:options': { inputType: 'url' } },
  logoUrl: { 'ui:title': 'organiser.event.logoUrl', 'ui:options': { inputType: 'url' } },
  termsUrl: { 'ui:title': 'organiser.event.termsUrl', 'ui:options': { inputType: 'url' } },
  supportEmail: { 'ui:title': 'organiser.event.supportEmail', 'ui:options': { inputType: 'email' } },
  showDays: {
    'ui:options': { label: false, orderable: false, copyable: false },
    'ui:addLabel': 'organiser.event.addDay',
    'ui:removeLabel': 'organiser.event.removeDay',
    items: {
      'ui:options': { label: false },
      date: { 'ui:title': 'organiser.event.date', 'ui:widget': 'eventDate' },
      // A plain time input: rjsf's time widget would add seconds ("10:00:00"), which the schema refuses.
      opens: { 'ui:title': 'organiser.event.opens', 'ui:options': { inputType: 'time' } },
      closes: { 'ui:title': 'organiser.event.closes', 'ui:options': { inputType: 'time' } },
    },
  },
  deadlines: { 'ui:field': 'namedValues', 'ui:options': { kind: 'eventDateTime' } },
  currency: { 'ui:title': 'organiser.event.currency', 'ui:widget': 'upperCase' },
  settings: { 'ui:field': 'namedValues', 'ui:options': { kind: 'decimal', columns: 3, wide: true } },
  defaultModules: { 'ui:title': 'organiser.event.modules', 'ui:field': 'checkList' },
  defaultFlags: { 'ui:field': 'flagGroups' },
  defaultQuotas: { 'ui:title': 'organiser.event.quotas', 'ui:field': 'namedValues', 'ui:options': { kind: 'integer', columns: 4 } },
  reminderDays: { 'ui:title': 'organiser.event.reminderDays', 'ui:help': 'organiser.event.reminderDaysHelp', 'ui:field': 'numberList' },
};

const OFFSETS = Array.from({ length: (UTC_OFFSET_RANGE.max - UTC_OFFSET_RANGE.min) / 15 + 1 }, (_, i) => UTC_OFFSET_RANGE.min + i * 15);

/** The event's UI schema for this vocabulary (deadline, setting, quota names…) and the data as it is now (its language, offset, currency). */
export function eventUi(vocabulary: Vocabulary, data: EventInput, t: TFunction): UiSchema {
  const named = (name: string) => t(`organiser.names.${name}`, { defaultValue: name });
  const showDays = EVENT_UI.showDays;
  const items = typeof showDays === 'object' && showDays !== null ? showDays.items : undefined;
  return {
    ...EVENT_UI,
    names: withUiOptions(EVENT_UI.names, {
      entries: LANGUAGE_OPTIONS.map((option) => ({
        name: option.code,
        label: t('organiser.event.nameIn', { language: option.label }),
        required: option.code === data.defaultLanguage,
      })),
    }),
    utcOffsetMinutes: withUiOptions(EVENT_UI.utcOffsetMinutes, { choices: OFFSETS.map((offset) => ({ value: offset, label: formatOffset(offset) })) }),
    // K2: each order shown with an example date as the reader's language writes it in that order.
    dateOrder: withUiOptions(EVENT_UI.dateOrder, {
      choices: DATE_ORDERS.map((order) => ({
        value: order,
        label: t(`organiser.event.dateOrders.${order}`, { example: formatEventDay('2027-03-26', { language: currentLanguage(), dateOrder: order }) }),
      })),
    }),
    showDays: { ...showDays, items: { ...items, date: withUiOptions(items?.date, { offsetMinutes: data.utcOffsetMinutes }) } },
    deadlines: withUiOptions(EVENT_UI.deadlines, { offsetMinutes: data.utcOffsetMinutes, entries: vocabulary.deadlineNames.map((name) => ({ name, label: named(name) })) }),
    // O2: each value forms.yaml lets the event set (a fee's price, an approval limit); empty keeps its default.
    settings: withUiOptions(EVENT_UI.settings, {
      entries: vocabulary.settings.map((setting) => ({
        name: setting.name,
        label: setting.kind === 'money' ? `${named(setting.name)} (${data.currency})` : named(setting.name),
        help: t('organiser.event.settingDefault', { value: setting.currency ? `${setting.default} ${setting.currency}` : setting.default }),
      })),
    }),
    defaultModules: withUiOptions(EVENT_UI.defaultModules, { choices: vocabulary.modules.map((module) => ({ value: module, label: module })) }),
    defaultFlags: withUiOptions(EVENT_UI.defaultFlags, {
      groups: Object.entries(vocabulary.flagGroups).map(([group, flags]) => ({ label: t(`organiser.flagGroups.${group}`), flags })),
    }),
    defaultQuotas: withUiOptions(EVENT_UI.defaultQuotas, { entries: vocabulary.quotaNames.map((name) => ({ name, label: named(name) })) }),
  };
}
