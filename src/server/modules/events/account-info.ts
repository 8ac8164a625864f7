import { LANGUAGE_OPTIONS } from '../../../engine/language';
import { ALL_FLAGS, type ParticipationFlag } from '../../../engine/participation-flags';
import type { AuthContext } from '../../plugins/sessions';
import { eventNameIn } from '../../lib/event-name';

// Account info of spec §3, built from the user's participation and event.

const iso = (value: Date | null | undefined) => (value ? new Date(value).toISOString() : null);

/** `language`: the reader's, for the event's name (H1, H2: the name set for that language). */
export function accountInfo(auth: AuthContext, language = 'en') {
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
    // Spec §3's four dates are the deadlines of these names (forms.yaml names each form's).
    badgesDlinedate: iso(deadlines.badges),
    boothDlinedate: iso(deadlines.booth),
    productDlinedate: iso(deadlines.product),
    profileDlinedate: iso(deadlines.profile),
    displayedModule: displayedModules,
    ...(Object.fromEntries(ALL_FLAGS.map((flag) => [flag, flags[flag] === true])) as Record<ParticipationFlag, boolean>),
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
    badgesDlinedate: dateField,
    boothDlinedate: dateField,
    productDlinedate: dateField,
    profileDlinedate: dateField,
    displayedModule: { type: 'array', items: { type: 'string' } },
    ...Object.fromEntries(ALL_FLAGS.map((flag) => [flag, { type: 'boolean' }])),
    multilingual: {
      type: 'array',
      items: { type: 'object', properties: { label: { type: 'string' }, code: { type: 'string' } }, required: ['label', 'code'] },
    },
  },
  // accountInfo() always sends every field (the browser's types rely on it, issue 16).
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
    'badgesDlinedate',
    'boothDlinedate',
    'productDlinedate',
    'profileDlinedate',
    'displayedModule',
    ...ALL_FLAGS,
    'multilingual',
  ],
} as const;
