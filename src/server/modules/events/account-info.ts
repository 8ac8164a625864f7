import { LANGUAGE_OPTIONS } from '../../../engine/language';
import { DATE_ORDERS, DEFAULT_DATE_ORDER, isDateOrder } from '../../../engine/locale-format';
import { FEATURE_FLAGS, participationFlags, type FeatureFlag } from '../../../engine/participation-flags';
import type { FormRegistry } from '../../plugins/forms/form-set';
import type { AuthContext } from '../../plugins/sessions';
import { eventNameIn } from '../../lib/event-name';

// Account info of spec §3, built from the user's participation and event. The flags about a form
// and the deadlines are those the form set in use declares (forms.yaml): each flag by its name, each
// deadline as `<name>Dlinedate` (spec §3's badgesDlinedate …) and in `deadlines`, which the pages list.

const iso = (value: Date | null | undefined) => (value ? new Date(value).toISOString() : null);

/** `language`: the reader's, for the event's name (H1, H2: the name set for that language). */
export function accountInfo(auth: AuthContext, language: string, forms: Pick<FormRegistry, 'definitions' | 'deadlines'>) {
  const { event, participation, exhibitor, displayedModules, user, deadlines } = auth;
  const exhibitName = event ? eventNameIn(event, language) : '';
  const flags = participation?.flags ?? {};
  return {
    name: exhibitor?.name ?? user.display_name,
    legalName: exhibitor?.legal_name ?? '',
    boothNum: participation?.booth_num ?? '',
    exhibitCode: event?.code ?? '',
    exhibitionId: event?.code ?? '',
    exhibitName,
    exhibitionName: exhibitName,
    companyLog: exhibitor?.logo_url ?? '',
    eventLog: event?.logo_url ?? '',
    eventUrl: event?.url ?? '',
    termsUrl: event?.terms_url ?? '',
    supportEmail: event?.support_email ?? '',
    utcOffsetMinutes: event?.utc_offset_minutes ?? 0,
    dateOrder: isDateOrder(event?.date_order) ? event.date_order : DEFAULT_DATE_ORDER,
    deadlines: forms.deadlines.map(({ name, title }) => ({ name, title, dueAt: iso(deadlines[name]) })),
    ...Object.fromEntries(forms.deadlines.map(({ name }) => [`${name}Dlinedate`, iso(deadlines[name])])),
    displayedModule: displayedModules,
    ...(Object.fromEntries(FEATURE_FLAGS.map((flag) => [flag, flags[flag] === true])) as Record<FeatureFlag, boolean>),
    ...Object.fromEntries(participationFlags(forms.definitions).map((flag) => [flag, flags[flag] === true])),
    multilingual: LANGUAGE_OPTIONS,
  };
}

const dateField = { type: ['string', 'null'], format: 'date-time' } as const;

export const accountInfoSchema = {
  type: 'object',
  properties: {
    name: { type: 'string', description: 'Exhibitor name' },
    legalName: { type: 'string' },
    boothNum: { type: 'string' },
    exhibitCode: { type: 'string' },
    exhibitionId: { type: 'string', description: 'Same as exhibitCode' },
    exhibitName: { type: 'string' },
    exhibitionName: { type: 'string', description: 'Same as exhibitName' },
    companyLog: { type: 'string', description: 'Company logo URL' },
    eventLog: { type: 'string', description: 'Event logo URL' },
    eventUrl: { type: 'string' },
    termsUrl: { type: 'string' },
    supportEmail: { type: 'string' },
    utcOffsetMinutes: { type: 'integer', description: 'Event time zone offset from UTC' },
    dateOrder: { type: 'string', enum: [...DATE_ORDERS], description: "K2: the order the event writes dates in, whatever the reader's language (`language`: the language's own)" },
    deadlines: {
      type: 'array',
      description: 'H2: the deadlines forms.yaml declares, in its order: name, locale key of the label, date (null = none)',
      items: {
        type: 'object',
        properties: { name: { type: 'string' }, title: { type: 'string' }, dueAt: dateField },
        required: ['name', 'title', 'dueAt'],
        additionalProperties: false,
      },
    },
    displayedModule: { type: 'array', items: { type: 'string' } },
    ...(Object.fromEntries(FEATURE_FLAGS.map((flag) => [flag, { type: 'boolean' }])) as Record<FeatureFlag, { type: 'boolean' }>),
    multilingual: {
      type: 'array',
      items: { type: 'object', properties: { label: { type: 'string' }, code: { type: 'string' } }, required: ['label', 'code'] },
    },
  },
  // accountInfo() always sends every field (the browser's types rely on it).
  required: [
    'name',
    'legalName',
    'boothNum',
    'exhibitCode',
    'exhibitionId',
    'exhibitName',
    'exhibitionName',
    'companyLog',
    'eventLog',
    'eventUrl',
    'termsUrl',
    'supportEmail',
    'utcOffsetMinutes',
    'dateOrder',
    'deadlines',
    'displayedModule',
    ...FEATURE_FLAGS,
    'multilingual',
  ],
  // Spec §3: the fields the form set in use declares, sent as well: each flag of its forms
  // (sectionFlags, languageFlag, submitOnceFlag) as a boolean, each deadline as `<name>Dlinedate`.
  additionalProperties: { type: ['boolean', 'string', 'null'] },
} as const;
