import { describe, expect, it } from 'vitest';
import { eventProblems, showSpan } from './organiser-events';
import type { EventInput } from './schemas/event';

const vocabulary = {
  modules: ['Forms', 'Support'],
  flags: ['eventShow'],
  deadlineNames: ['badges', 'booth'],
  quotaNames: ['badges', 'teamUsers'],
  settings: [
    { name: 'extraBadgeFee', kind: 'money' as const },
    { name: 'boothHeightLimit', kind: 'number' as const },
  ],
};
const good: EventInput = {
  code: 'EXPO2027',
  names: { en: 'Expo 2027', cn: '博览会 2027' },
  defaultLanguage: 'en',
  showDays: [
    { date: '2027-03-18', opens: '10:00', closes: '17:00' },
    { date: '2027-03-17', opens: '10:00', closes: '18:00' },
  ],
  utcOffsetMinutes: 480,
  venue: 'KLCC',
  logoUrl: '',
  url: 'https://expo.example',
  termsUrl: '',
  supportEmail: 'help@expo.example',
  currency: 'MYR',
  settings: { extraBadgeFee: '12.50', boothHeightLimit: '3' },
  deadlines: { badges: '2027-03-01T00:00:00Z' },
  defaultModules: ['Forms'],
  defaultFlags: { eventShow: true },
  defaultQuotas: { badges: 5 },
  reminderDays: [7, 1],
};

describe('event rules (O2)', () => {
  it('accepts a complete event and spans it from the first opening to the last closing in event time', () => {
    expect(eventProblems(good, vocabulary)).toEqual({});
    expect(showSpan(good.showDays, 480)).toEqual({ startsAt: new Date('2027-03-17T02:00:00Z'), endsAt: new Date('2027-03-18T09:00:00Z') });
  });
  it('puts a deadline after the show and a closing before the opening beside their fields', () => {
    const problems = eventProblems(
      {
        ...good,
        deadlines: { badges: '2027-03-18T09:30:00Z', booth: '2027-03-18T08:59:00Z' },
        showDays: [{ date: '2027-03-17', opens: '18:00', closes: '10:00' }, good.showDays[0]!],
      },
      vocabulary,
    );
    expect(problems).toEqual({ 'showDays.0.closes': 'organiser.validation.closesBeforeOpens', 'deadlines.badges': 'organiser.validation.deadlineAfterShow' });
  });
  it('refuses impossible dates, unknown names and modules, bad addresses and a missing default-language name', () => {
    const problems = eventProblems(
      {
        ...good,
        code: 'a b',
        names: { en: ' ', xx: 'x' },
        showDays: [{ date: '2027-02-30', opens: '10:00', closes: '18:00' }],
        url: 'javascript:alert(1)',
        supportEmail: 'ｈｅｌｐ@expo.example',
        currency: 'myr',
        deadlines: { visa: '2027-01-01T00:00:00Z' },
        defaultModules: ['Forms', 'Rocket'],
        defaultQuotas: { badges: -1 },
        settings: { extraBadgeFee: '12.505', boothHeightLimit: '0', parkingFee: '5' },
        reminderDays: [7, 7],
      },
      vocabulary,
    );
    expect(problems).toMatchObject({
      code: 'organiser.validation.code',
      'names.en': 'organiser.validation.nameRequired',
      'names.xx': 'organiser.validation.language',
      'showDays.0.date': 'organiser.validation.date',
      url: 'organiser.validation.url',
      supportEmail: 'errors.emailInvalid',
      currency: 'organiser.validation.currency',
      'deadlines.visa': 'organiser.validation.unknownName',
      defaultModules: 'organiser.validation.unknownModule',
      'defaultQuotas.badges': 'organiser.validation.quota',
      'settings.extraBadgeFee': 'organiser.validation.fee',
      'settings.boothHeightLimit': 'organiser.validation.settingNumber',
      'settings.parkingFee': 'organiser.validation.unknownName',
      reminderDays: 'organiser.validation.reminderDays',
    });
  });
});

describe('event logo', () => {
  it("K2: the event's date order is one the portal knows; not given, the stored one stays", () => {
    for (const dateOrder of ['language', 'dmy', 'mdy', 'ymd'] as const) expect(eventProblems({ ...good, dateOrder }, vocabulary)).toEqual({});
    expect(eventProblems({ ...good, dateOrder: 'dym' as never }, vocabulary)).toEqual({ dateOrder: 'organiser.validation.dateOrder' });
    expect(eventProblems({ ...good, dateOrder: undefined }, vocabulary)).toEqual({});
  });

  it("a logo may be a path on the portal (the demo's); a protocol-relative or script address is refused", () => {
    expect(eventProblems({ ...good, logoUrl: '/demo/afhe-logo.svg' }, vocabulary)).toEqual({});
    expect(eventProblems({ ...good, logoUrl: '//evil.example/logo.png' }, vocabulary)).toEqual({ logoUrl: 'organiser.validation.url' });
    expect(eventProblems({ ...good, logoUrl: '/\\evil.example/logo.png' }, vocabulary)).toEqual({ logoUrl: 'organiser.validation.url' });
    expect(eventProblems({ ...good, logoUrl: 'javascript:alert(1)' }, vocabulary)).toEqual({ logoUrl: 'organiser.validation.url' });
  });
});

describe('event-local deadlines', () => {
  it('shows an instant in event time and reads it back', async () => {
    const { toEventLocal, fromEventLocal } = await import('./organiser-events');
    expect(toEventLocal('2027-03-01T01:30:00.000Z', 480)).toBe('2027-03-01T09:30');
    expect(fromEventLocal('2027-03-01T09:30', 480)).toBe('2027-03-01T01:30:00.000Z');
    expect(fromEventLocal('2027-03-01', 480)).toBe('');
  });
});
