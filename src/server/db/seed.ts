import type { Kysely } from 'kysely';
import { catalogue } from '../../generated/screens';
import { showSpan } from '../../engine/organiser-events';
import { hashPassword } from '../lib/passwords';
import { insertSubmittedEntry } from '../plugins/form-entries';
import { insertLeads, insertVisitors, scanningPeople } from './demo-leads';
import type { Database } from './schema';
import { seedDemoContent } from './seed-content';

// The demo event a newcomer logs into. Dates are relative to the day of seeding so the demo
// stays meaningful: the show is ahead, most deadlines are ahead, the profile deadline passed.

export const DEMO_EVENT_CODE = 'AFHE2027';
export const DEMO_PASSWORD = 'Demo-pass-2026';
/** LD1: visitors of the demo event (badge codes AFHE2027-V0000001…) and the demo exhibitor's leads per show day. */
export const DEMO_VISITORS = 3000;
export const DEMO_LEADS_PER_DAY = 160;
/** LD5/P1: the demo exhibitor's team user (scans leads) and contractor (fills S03/S05/S08). */
/** Members' logins live under their exhibitor's (`demo/…`, see memberLogin). */
export const DEMO_TEAM_USER_LOGIN = 'demo/scanner';
export const DEMO_CONTRACTOR_LOGIN = 'demo/builder';
/** Every account the demo creates (all share DEMO_PASSWORD, so none may face the internet). */
export const DEMO_LOGINS = ['demo', 'limited', 'organiser', DEMO_TEAM_USER_LOGIN, DEMO_CONTRACTOR_LOGIN];

/** The demo exhibitor has every exhibitor module the catalogue knows (organiser modules are not theirs). */
export const ALL_MODULES = catalogue.modules.filter((module) => !module.startsWith('Organiser'));

const DAY = 24 * 60 * 60 * 1000;

function daysFromNow(now: Date, days: number, hourUtc = 1): Date {
  const date = new Date(now.getTime() + days * DAY);
  date.setUTCHours(hourUtc, 0, 0, 0);
  return date;
}

const allFlagsOn = {
  eventShow: true,
  leadgrabShow: true,
  digitalShow: true,
  hideAccountHome: false,
  downloadPdf: true,
  countryRequired: true,
  s01CompanyShow: true,
  s01ContactShow: true,
  s01DistributionShow: true,
  s01GoalShow: true,
  s02BrandNameShow: true,
  S01BoothDisplayName: true,
  productSecondLanguage: true,
  profileSecondLanguage: true,
  s01SubmitOnceOnly: false,
  s02SubmitOnceOnly: false,
  s03SubmitOnceOnly: true,
  s04SubmitOnceOnly: false,
  s05SubmitOnceOnly: true,
};

export async function seedDemo(db: Kysely<Database>, now = new Date()): Promise<void> {
  const existing = await db.selectFrom('events').select('id').where('code', '=', DEMO_EVENT_CODE).executeTakeFirst();
  if (existing) return;
  const passwordHash = await hashPassword(DEMO_PASSWORD);

  await db.transaction().execute(async (trx) => {
    const organisation = await trx.insertInto('organisations').values({ name: 'AFHE Organising Committee' }).returning('id').executeTakeFirstOrThrow();
    const showDays = (startDays: number, lengthDays: number) =>
      Array.from({ length: lengthDays }, (_, day) => ({
        date: new Date(daysFromNow(now, startDays + day).getTime() + 480 * 60_000).toISOString().slice(0, 10),
        opens: '10:00',
        closes: '18:00',
      }));
    const eventRow = (code: string, name: string, startDays: number, lengthDays: number, names: Record<string, string> = {}) => ({
      organisation_id: organisation.id,
      names: JSON.stringify({ en: name, ...names }),
      show_days: JSON.stringify(showDays(startDays, lengthDays)),
      default_modules: JSON.stringify(ALL_MODULES),
      default_flags: JSON.stringify(allFlagsOn),
      currency: 'MYR',
      code,
      name,
      url: `https://www.afhe-expo.example/${code.toLowerCase()}`,
      logo_url: '/demo/afhe-logo.svg',
      venue: 'Kuala Lumpur Convention Centre, Hall 1–5',
      starts_at: daysFromNow(now, startDays),
      ends_at: daysFromNow(now, startDays + lengthDays, 10),
      utc_offset_minutes: 480,
      terms_url: 'https://www.afhe-expo.example/terms-of-use',
      support_email: 'exhibitor-support@afhe-expo.example',
    });
    const [demoEvent, pastEvent, liveEvent] = await Promise.all([
      trx
        .insertInto('events')
        .values(
          eventRow(DEMO_EVENT_CODE, 'ASEAN Food & Hospitality Expo 2027', 118, 3, {
            cn: '2027 东盟食品与酒店博览会',
            ja: 'ASEAN フード＆ホスピタリティ・エキスポ 2027',
            vi: 'Triển lãm Thực phẩm & Khách sạn ASEAN 2027',
          }),
        )
        .returning('id')
        .executeTakeFirstOrThrow(),
      trx
        .insertInto('events')
        .values(eventRow('AFHE2026', 'ASEAN Food & Hospitality Expo 2026', -247, 3))
        .returning('id')
        .executeTakeFirstOrThrow(),
      trx
        .insertInto('events')
        .values({ ...eventRow('HALAL2026', 'Halal Ingredients Week 2026', -1, 3), logo_url: '/demo/halal-week-logo.svg', url: 'https://www.halal-week.example/2026' })
        .returning('id')
        .executeTakeFirstOrThrow(),
    ]);

    const borneo = await trx
      .insertInto('exhibitors')
      .values({ name: 'Borneo Botanica', legal_name: 'Borneo Botanica Sdn. Bhd.', logo_url: '/demo/borneo-botanica-logo.svg', organisation_id: organisation.id, code: 'BORNEO' })
      .returning('id')
      .executeTakeFirstOrThrow();
    const kopi = await trx
      .insertInto('exhibitors')
      .values({ name: 'Kopi Nusantara', legal_name: 'Kopi Nusantara Trading Sdn. Bhd.', logo_url: '/demo/kopi-nusantara-logo.svg', organisation_id: organisation.id, code: 'KOPI' })
      .returning('id')
      .executeTakeFirstOrThrow();

    // O2: each event's deadlines and quotas (rows by name; an exhibitor may get its own).
    const deadlines = { badges: daysFromNow(now, 90, 15), booth: daysFromNow(now, 75, 15), product: daysFromNow(now, 60, 15), profile: daysFromNow(now, -3, 15) };
    const quotas = { badges: 5, contractorBadges: 10, teamUsers: 3, contractors: 3 };
    // A deadline never falls after its show (the console's rule): the past and live events' are
    // held to their last show day, so every seeded event saves unchanged.
    for (const [event, days] of [
      [demoEvent, showDays(118, 3)],
      [pastEvent, showDays(-247, 3)],
      [liveEvent, showDays(-1, 3)],
    ] as const) {
      const lastShowDay = showSpan(days, 480)!.endsAt;
      await trx
        .insertInto('deadlines')
        .values(Object.entries(deadlines).map(([name, due_at]) => ({ event_id: event.id, name, due_at: due_at > lastShowDay ? lastShowDay : due_at })))
        .execute();
      await trx
        .insertInto('quotas')
        .values(Object.entries(quotas).map(([name, value]) => ({ event_id: event.id, name, value })))
        .execute();
    }
    const participation = (exhibitorId: number, eventId: number, booth: string, modules: string[], flags: Record<string, boolean>) => ({
      exhibitor_id: exhibitorId,
      event_id: eventId,
      booth_num: booth,
      displayed_modules: JSON.stringify(modules),
      flags: JSON.stringify(flags),
    });
    const demoParticipation = await trx
      .insertInto('participations')
      .values(participation(borneo.id, demoEvent.id, 'Hall 3 · B12', ALL_MODULES, allFlagsOn))
      .returning('id')
      .executeTakeFirstOrThrow();
    const [pastParticipation, liveParticipation] = await trx
      .insertInto('participations')
      .values([participation(borneo.id, pastEvent.id, 'Hall 2 · C07', ALL_MODULES, allFlagsOn), participation(borneo.id, liveEvent.id, 'Hall A · 118', ALL_MODULES, allFlagsOn)])
      .returning('id')
      .execute();
    // Last year's product highlights, so "copy from my previous event" (F3) has something to copy.
    const lastYearsProducts = {
      products: [
        {
          brandName: 'Borneo Botanica',
          productName: 'Wild Tualang Honey',
          description: 'Raw honey from the Tualang trees of the Bornean rainforest.',
          category: 'beverages',
          newLaunch: false,
        },
        {
          brandName: 'Borneo Botanica',
          productName: 'Bario Rice Crackers',
          description: 'Crackers made with heirloom Bario highland rice.',
          category: 'processedFood',
          newLaunch: true,
        },
      ],
    };
    await insertSubmittedEntry(trx, { participationId: pastParticipation!.id, formId: 's02', data: lastYearsProducts, submittedAt: daysFromNow(now, -280) });
    // The profile deadline has passed: the demo exhibitor submitted its promotion profile (S01) in
    // time, so the forms that need it (S02) can be submitted and the demo never starts stuck (F10).
    const promotionProfile = {
      company: {
        companyName: 'Borneo Botanica Sdn. Bhd.',
        boothDisplayName: 'Borneo Botanica',
        businessNature: 'Producer and exporter of rainforest honey and herbal teas',
        mainProductCategories: ['beverages', 'healthOrganic'],
        description: 'Family-run producer from Sabah supplying hotels and specialty retailers across ASEAN since 2009.',
        website: 'https://www.borneo-botanica.example',
      },
      contacts: {
        operations: { name: 'Aisyah Rahman', jobTitle: 'Operations Manager', email: 'operations@borneo-botanica.example' },
        marketingSales: { name: 'Daniel Wong', jobTitle: 'Head of Sales', email: 'sales@borneo-botanica.example' },
      },
      distribution: [{ relationship: 'agent', company: 'Lim Trading Pte. Ltd.', country: 'SG' }],
      goals: { categories: ['distribution'], notes: 'Meet two new distributors in Viet Nam.' },
    };
    await insertSubmittedEntry(trx, { participationId: demoParticipation.id, formId: 's01', data: promotionProfile, submittedAt: daysFromNow(now, -5) });
    const limitedParticipation = await trx
      .insertInto('participations')
      .values(participation(kopi.id, demoEvent.id, 'Hall 1 · A03', ['Forms', 'Support'], { ...allFlagsOn, productSecondLanguage: false, s02BrandNameShow: false }))
      .returning('id')
      .executeTakeFirstOrThrow();

    await trx
      .insertInto('users')
      .values([
        {
          login: 'demo',
          login_key: 'demo',
          email: 'demo@borneo-botanica.example',
          display_name: 'Aisyah Rahman',
          password_hash: passwordHash,
          role: 'exhibitor',
          participation_id: demoParticipation.id,
          event_id: demoEvent.id,
          status: 'active',
        },
        {
          login: 'limited',
          login_key: 'limited',
          email: 'limited@kopi-nusantara.example',
          display_name: 'Budi Santoso',
          password_hash: passwordHash,
          role: 'exhibitor',
          participation_id: limitedParticipation.id,
          event_id: demoEvent.id,
          status: 'active',
        },
        // Borneo's accounts of the other events, so the organiser's console can save them unchanged;
        // disabled, as the demo signs in to the current event only.
        ...[
          { login: 'borneo.2026', participation: pastParticipation!, event: pastEvent },
          { login: 'borneo.halal', participation: liveParticipation!, event: liveEvent },
        ].map(({ login, participation, event }) => ({
          login,
          login_key: login,
          email: 'demo@borneo-botanica.example',
          display_name: 'Aisyah Rahman',
          password_hash: passwordHash,
          role: 'exhibitor' as const,
          participation_id: participation.id,
          event_id: event.id,
          status: 'disabled' as const,
        })),
        {
          login: 'organiser',
          login_key: 'organiser',
          email: 'organiser@afhe-expo.example',
          display_name: 'AFHE Organising Committee',
          password_hash: passwordHash,
          role: 'organiser',
          participation_id: null,
          organisation_id: organisation.id,
          event_id: demoEvent.id,
          status: 'active',
        },
      ])
      .execute();

    // ---- members (LD5, P1): a team user and a contractor login granted by `demo` ----
    const demoUser = await trx.selectFrom('users').select('id').where('login_key', '=', 'demo').executeTakeFirstOrThrow();
    await trx
      .insertInto('users')
      .values([
        {
          login: DEMO_TEAM_USER_LOGIN,
          login_key: DEMO_TEAM_USER_LOGIN,
          email: 'scanner@borneo-botanica.example',
          display_name: 'scanner',
          password_hash: passwordHash,
          role: 'team_user',
          participation_id: demoParticipation.id,
          event_id: demoEvent.id,
          status: 'active',
          lead_quota: 500,
          created_by: demoUser.id,
        },
        {
          login: DEMO_CONTRACTOR_LOGIN,
          login_key: DEMO_CONTRACTOR_LOGIN,
          email: 'hafiz@rimba-stands.example',
          display_name: 'Hafiz Ismail',
          company: 'Rimba Stand Builders Sdn. Bhd.',
          password_hash: passwordHash,
          role: 'contractor',
          participation_id: demoParticipation.id,
          event_id: demoEvent.id,
          status: 'active',
          created_by: demoUser.id,
        },
      ])
      .execute();
    // ---- end members ----

    // ---- content: manuals, announcements, FAQ, tips, introduction, support ----
    await seedDemoContent(trx, demoEvent.id, 'en', now);
    // CT5: demo's showroom is published (it shows what demo submits in S01 and S02).
    await trx.insertInto('showrooms').values({ participation_id: demoParticipation.id, slug: 'afhe2027-borneo-botanica', published: true, published_at: now }).execute();

    // ---- leads (LD1-LD4): visitors of the demo event and the demo exhibitor's scans ----
    await seedDemoLeads(trx, { id: demoEvent.id, code: DEMO_EVENT_CODE, startsAt: daysFromNow(now, 118), offsetMinutes: 480 }, demoParticipation.id);
    // ---- end leads ----
  });
}

/** Visitors of the demo event, and leads over its three days (09:00-18:00 event time), scanned by the exhibitor's people. */
async function seedDemoLeads(db: Kysely<Database>, event: { id: number; code: string; startsAt: Date; offsetMinutes: number }, participationId: number) {
  await insertVisitors(db, event, 1, DEMO_VISITORS);
  const people = await scanningPeople(db, participationId);
  const exhibitor = people.filter((p) => p.role === 'exhibitor').map((p) => p.id);
  const scannedBy = [...exhibitor, ...exhibitor, ...people.filter((p) => p.role === 'team_user').map((p) => p.id)];
  const firstDay = Math.floor((event.startsAt.getTime() + event.offsetMinutes * 60_000) / DAY);
  for (let day = 0; day < 3; day += 1) {
    const nine = (firstDay + day) * DAY + 9 * 3_600_000 - event.offsetMinutes * 60_000;
    await insertLeads(db, {
      participationId,
      scannedBy,
      eventId: event.id,
      eventCode: event.code,
      offsetMinutes: event.offsetMinutes,
      start: new Date(nine),
      end: new Date(nine + 9 * 3_600_000),
      first: day * DEMO_LEADS_PER_DAY + 1,
      last: (day + 1) * DEMO_LEADS_PER_DAY,
      visitors: DEMO_VISITORS,
      unknownEvery: 25,
      qualifiedShare: 0.45,
    });
  }
}
