import type { Kysely } from 'kysely';
import { catalogue } from '../../generated/screens';
import { hashPassword } from '../lib/passwords';
import { insertLeads, insertVisitors } from '../modules/leads/generate';
import type { Database } from './schema';

// The demo event a newcomer logs into. Dates are relative to the day of seeding so the demo
// stays meaningful: the show is ahead, most deadlines are ahead, the profile deadline passed.

export const DEMO_EVENT_CODE = 'AFHE2027';
export const DEMO_PASSWORD = 'Demo-pass-2026';
/** LD1: visitors of the demo event (badge codes AFHE2027-V0000001…) and the demo exhibitor's leads per show day. */
export const DEMO_VISITORS = 3000;
export const DEMO_LEADS_PER_DAY = 160;
/** LD5/P1: the demo exhibitor's team user (scans leads) and contractor (fills S03/S05/S08). */
export const DEMO_TEAM_USER_LOGIN = 'scanner';
export const DEMO_CONTRACTOR_LOGIN = 'builder';

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

function text(en: string, cn: string, ja: string, vi: string) {
  return JSON.stringify({ en, cn, ja, vi });
}

export async function seedDemo(db: Kysely<Database>, now = new Date()): Promise<void> {
  const existing = await db.selectFrom('events').select('id').where('code', '=', DEMO_EVENT_CODE).executeTakeFirst();
  if (existing) return;
  const passwordHash = await hashPassword(DEMO_PASSWORD);

  await db.transaction().execute(async (trx) => {
    const eventRow = (code: string, name: string, startDays: number, lengthDays: number) => ({
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
      trx.insertInto('events').values(eventRow(DEMO_EVENT_CODE, 'ASEAN Food & Hospitality Expo 2027', 118, 3)).returning('id').executeTakeFirstOrThrow(),
      trx.insertInto('events').values(eventRow('AFHE2026', 'ASEAN Food & Hospitality Expo 2026', -247, 3)).returning('id').executeTakeFirstOrThrow(),
      trx
        .insertInto('events')
        .values({ ...eventRow('HALAL2026', 'Halal Ingredients Week 2026', -1, 3), logo_url: '/demo/halal-week-logo.svg', url: 'https://www.halal-week.example/2026' })
        .returning('id')
        .executeTakeFirstOrThrow(),
    ]);

    const borneo = await trx
      .insertInto('exhibitors')
      .values({ name: 'Borneo Botanica', legal_name: 'Borneo Botanica Sdn. Bhd.', logo_url: '/demo/borneo-botanica-logo.svg' })
      .returning('id')
      .executeTakeFirstOrThrow();
    const kopi = await trx
      .insertInto('exhibitors')
      .values({ name: 'Kopi Nusantara', legal_name: 'Kopi Nusantara Trading Sdn. Bhd.', logo_url: '/demo/kopi-nusantara-logo.svg' })
      .returning('id')
      .executeTakeFirstOrThrow();

    const deadlines = {
      badges_deadline: daysFromNow(now, 90, 15),
      booth_deadline: daysFromNow(now, 75, 15),
      product_deadline: daysFromNow(now, 60, 15),
      profile_deadline: daysFromNow(now, -3, 15),
    };
    const participation = (exhibitorId: number, eventId: number, booth: string, modules: string[], flags: Record<string, boolean>) => ({
      exhibitor_id: exhibitorId,
      event_id: eventId,
      booth_num: booth,
      displayed_modules: JSON.stringify(modules),
      flags: JSON.stringify(flags),
      ...deadlines,
      badge_quota: 5,
      team_user_quota: 3,
    });
    const demoParticipation = await trx
      .insertInto('participations')
      .values(participation(borneo.id, demoEvent.id, 'Hall 3 · B12', ALL_MODULES, allFlagsOn))
      .returning('id')
      .executeTakeFirstOrThrow();
    const [pastParticipation] = await trx
      .insertInto('participations')
      .values([
        participation(borneo.id, pastEvent.id, 'Hall 2 · C07', ALL_MODULES, allFlagsOn),
        participation(borneo.id, liveEvent.id, 'Hall A · 118', ALL_MODULES, allFlagsOn),
      ])
      .returning('id')
      .execute();
    // Last year's product highlights, so "copy from my previous event" (F3) has something to copy.
    const lastYearsProducts = {
      products: [
        { brandName: 'Borneo Botanica', productName: 'Wild Tualang Honey', description: 'Raw honey from the Tualang trees of the Bornean rainforest.', category: 'beverages', newLaunch: false },
        { brandName: 'Borneo Botanica', productName: 'Bario Rice Crackers', description: 'Crackers made with heirloom Bario highland rice.', category: 'processedFood', newLaunch: true },
      ],
    };
    await trx
      .insertInto('form_entries')
      .values({
        participation_id: pastParticipation!.id,
        form_id: 's02',
        data: JSON.stringify(lastYearsProducts),
        submitted_data: JSON.stringify(lastYearsProducts),
        status: 'submitted',
        submitted_at: daysFromNow(now, -280),
      })
      .execute();
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
      distribution: [{ relationship: 'agent', company: 'Lim Trading Pte. Ltd.', country: 'Singapore' }],
      goals: { categories: ['distribution'], notes: 'Meet two new distributors in Viet Nam.' },
    };
    await trx
      .insertInto('form_entries')
      .values({
        participation_id: demoParticipation.id,
        form_id: 's01',
        data: JSON.stringify(promotionProfile),
        submitted_data: JSON.stringify(promotionProfile),
        status: 'submitted',
        submitted_at: daysFromNow(now, -5),
      })
      .execute();
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
        {
          login: 'organiser',
          login_key: 'organiser',
          email: 'organiser@afhe-expo.example',
          display_name: 'AFHE Organising Committee',
          password_hash: passwordHash,
          role: 'organiser',
          participation_id: null,
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
          display_name: DEMO_TEAM_USER_LOGIN,
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

    const published = daysFromNow(now, -10);
    await trx
      .insertInto('content')
      .values([
        {
          event_id: demoEvent.id,
          kind: 'tip',
          screen_id: 'home',
          title: text('Before you start', '开始之前', 'はじめに', 'Trước khi bắt đầu'),
          body: text(
            'Complete the mandatory forms before their deadlines: your promotion profile appears in the show directory and your badges are printed from the badge list.',
            '请在截止日期前完成必填表格：您的推广资料将显示在展会名录中，证件将根据证件名单打印。',
            '締め切りまでに必須フォームを提出してください。プロモーションプロフィールは出展者名簿に掲載され、バッジはバッジリストから印刷されます。',
            'Hãy hoàn thành các biểu mẫu bắt buộc trước hạn chót: hồ sơ quảng bá sẽ xuất hiện trong danh bạ triển lãm và thẻ được in từ danh sách thẻ.',
          ),
          published_at: published,
        },
        {
          event_id: demoEvent.id,
          kind: 'tip',
          screen_id: 'home',
          title: text('Your team', '您的团队', 'チーム', 'Đội ngũ của bạn'),
          body: text(
            'Give each colleague and contractor their own login rather than sharing yours; you can see who changed what.',
            '请为每位同事和承建商分别开设登录账号，而不是共用您的账号；这样可以看到谁修改了什么。',
            '同僚や施工業者にはアカウントを共有せず、それぞれのログインを発行してください。誰が何を変更したか分かります。',
            'Hãy cấp cho mỗi đồng nghiệp và nhà thầu một tài khoản riêng thay vì dùng chung tài khoản của bạn; bạn sẽ biết ai đã thay đổi gì.',
          ),
          published_at: published,
        },
        {
          event_id: demoEvent.id,
          kind: 'manual',
          screen_id: 'manuals',
          title: text('Exhibitor manual 2027', '2027 参展商手册', '出展者マニュアル 2027', 'Sổ tay đơn vị triển lãm 2027'),
          body: text(
            'Move-in is on the two days before opening, 08:00–22:00. Stand construction above 2.44 m needs the organiser’s approval.',
            '布展时间为开幕前两天 08:00–22:00。展位搭建高度超过 2.44 米需经主办方批准。',
            '搬入は開幕前の2日間、08:00～22:00です。高さ2.44 mを超える小間の施工には主催者の承認が必要です。',
            'Thời gian dàn dựng là hai ngày trước khai mạc, 08:00–22:00. Gian hàng cao trên 2,44 m cần ban tổ chức phê duyệt.',
          ),
          published_at: published,
        },
        {
          event_id: demoEvent.id,
          kind: 'faq',
          screen_id: 'support',
          title: text('How many badges do I get?', '我可以获得多少张证件？', 'バッジは何枚もらえますか？', 'Tôi được bao nhiêu thẻ?'),
          body: text(
            'Each booth includes 5 exhibitor badges. Extra badges cost MYR10.00 each and need the organiser’s approval.',
            '每个展位包含 5 张参展商证件。额外证件每张 MYR10.00，需经主办方批准。',
            '各小間に出展者バッジ5枚が含まれます。追加バッジは1枚 MYR10.00 で、主催者の承認が必要です。',
            'Mỗi gian hàng gồm 5 thẻ đơn vị triển lãm. Thẻ thêm giá MYR10.00 mỗi thẻ và cần ban tổ chức phê duyệt.',
          ),
          published_at: published,
        },
        {
          event_id: demoEvent.id,
          kind: 'announcement',
          screen_id: 'announcements',
          title: text('Exhibitor briefing on 12 February', '2月12日参展商说明会', '2月12日 出展者説明会', 'Buổi hướng dẫn đơn vị triển lãm ngày 12/2'),
          body: text(
            'Join the online exhibitor briefing at 15:00 (UTC+08:00) for logistics, badges and lead capture.',
            '请于 15:00（UTC+08:00）参加线上参展商说明会，了解物流、证件和潜在客户采集。',
            '15:00（UTC+08:00）からのオンライン出展者説明会で、物流、バッジ、リード獲得についてご案内します。',
            'Tham gia buổi hướng dẫn trực tuyến lúc 15:00 (UTC+08:00) về hậu cần, thẻ và thu thập khách hàng tiềm năng.',
          ),
          published_at: published,
        },
      ])
      .execute();

    // ---- leads (LD1-LD4): visitors of the demo event and the demo exhibitor's scans ----
    await seedDemoLeads(trx, { id: demoEvent.id, code: DEMO_EVENT_CODE, startsAt: daysFromNow(now, 118), offsetMinutes: 480 }, demoParticipation.id);
    // ---- end leads ----
  });
}

/** Visitors of the demo event, and leads over its three days (09:00-18:00 event time), scanned by the exhibitor's people. */
async function seedDemoLeads(db: Kysely<Database>, event: { id: number; code: string; startsAt: Date; offsetMinutes: number }, participationId: number) {
  await insertVisitors(db, event, 1, DEMO_VISITORS);
  const people = await db.selectFrom('users').select(['id', 'role']).where('participation_id', '=', participationId).where('role', 'in', ['exhibitor', 'team_user']).orderBy('id').execute();
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
