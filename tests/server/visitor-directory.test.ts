import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addRivalOrganiser, bodyOf, createTestApp, ENGINES, get, insertTeamUser, login, post, put, type TestApp } from './helpers';

// LD1: the visitor directory the scanner keeps offline, on both engines: only the fields the
// organiser shares (none by default), only the caller's own event, a keyset cursor through every
// visitor, a version that changes with what is answered, device tokens allowed.

interface Directory {
  version: string;
  fields: string[];
  items: Array<{ badgeCode: string; name?: string; company?: string; jobTitle?: string }>;
  next: string | null;
}

describe.each(ENGINES)('visitor directory on %s', (engine) => {
  let t: TestApp;
  let demo: string;
  let organiser: string;
  let eventId: number;
  let participationId: number;

  const directory = async (token: string, query = '') => {
    const answer = await get<Directory>(t.app, `/oga/leads/visitor-directory${query}`, token);
    expect(answer.code).toBe(200);
    return answer.data;
  };
  const everything = async (token: string, limit = 7) => {
    const items: Directory['items'] = [];
    let after: string | null = null;
    let version = '';
    do {
      const page: Directory = await directory(token, `?limit=${limit}${after ? `&after=${after}` : ''}`);
      version ||= page.version;
      items.push(...page.items);
      after = page.next;
    } while (after);
    return { items, version };
  };

  beforeAll(async () => {
    t = await createTestApp(engine);
    [demo, organiser] = await Promise.all([login(t.app, 'demo'), login(t.app, 'organiser')]);
    const user = await t.app.db.selectFrom('users').select(['participation_id', 'event_id']).where('login', '=', 'demo').executeTakeFirstOrThrow();
    eventId = user.event_id!;
    participationId = user.participation_id!;
  });
  afterAll(async () => t?.close());

  it('LD1: empty until the organiser shares fields; then only those fields, every visitor of the event once, through the cursor', async () => {
    expect(await directory(demo)).toEqual({ version: 'none', fields: [], items: [], next: null });
    expect((await get(t.app, `/oga/organiser/events/${eventId}/visitor-directory`, organiser)).data).toEqual({ fields: [] });

    expect((await put(t.app, `/oga/organiser/events/${eventId}/visitor-directory`, { fields: ['company', 'name'] }, organiser)).code).toBe(200);
    expect((await get(t.app, `/oga/organiser/events/${eventId}/visitor-directory`, organiser)).data).toEqual({ fields: ['name', 'company'] });
    const visitors = await t.app.db.selectFrom('visitors').select(['badge_code', 'name', 'company']).where('event_id', '=', eventId).orderBy('id').limit(3).execute();
    const total = (await t.app.db.selectFrom('visitors').select('id').where('event_id', '=', eventId).execute()).length;
    const first = await directory(demo, '?limit=3');
    expect(first.fields).toEqual(['name', 'company']);
    expect(first.items).toEqual(visitors.map((v) => ({ badgeCode: v.badge_code, name: v.name, company: v.company })));
    expect(first.next).not.toBeNull();

    const { items, version } = await everything(demo, Math.ceil(total / 4));
    expect(items).toHaveLength(total);
    expect(new Set(items.map((item) => item.badgeCode)).size).toBe(total);
    expect(items.every((item) => !('jobTitle' in item))).toBe(true);

    // The version stays while nothing changes, and changes with the fields or a visitor.
    expect((await directory(demo, '?limit=1')).version).toBe(version);
    await put(t.app, `/oga/organiser/events/${eventId}/visitor-directory`, { fields: ['name', 'company', 'jobTitle'] }, organiser);
    const withTitles = await directory(demo, '?limit=1');
    expect(withTitles.version).not.toBe(version);
    expect(Object.keys(withTitles.items[0]!).sort()).toEqual(['badgeCode', 'company', 'jobTitle', 'name']);
    await t.app.db.updateTable('visitors').set({ company: 'Renamed Co' }).where('badge_code', '=', visitors[0]!.badge_code).where('event_id', '=', eventId).execute();
    expect((await directory(demo, '?limit=1')).version).not.toBe(withTitles.version);

    // A bad cursor or page size is a coded bad request.
    expect(bodyOf(await get(t.app, '/oga/leads/visitor-directory?after=abc', demo))).toMatchObject({ error: 'badRequest' });
    expect(bodyOf(await get(t.app, '/oga/leads/visitor-directory?limit=0', demo))).toMatchObject({ error: 'badRequest' });
  });

  it("LD1: a scanning device and a team user read it; another event's exhibitor never sees this event's visitors; another organiser cannot set it", async () => {
    await put(t.app, `/oga/organiser/events/${eventId}/visitor-directory`, { fields: ['name'] }, organiser);
    const memberId = await insertTeamUser(t.app, { login: `dir-member-${engine}`, participationId, eventId, quota: 5 });
    void memberId;
    const member = await login(t.app, `dir-member-${engine}`);
    const device = (await post(t.app, '/oga/leads/devices', { name: 'Booth phone' }, member)).data.token as string;
    const viaDevice = await directory(device, '?limit=2');
    expect(viaDevice.items).toHaveLength(2);
    expect(Object.keys(viaDevice.items[0]!).sort()).toEqual(['badgeCode', 'name']);

    // Another organisation's event with its own exhibitor and visitors.
    const rival = await addRivalOrganiser(t.app);
    const rivalOrganiser = await login(t.app, 'rival');
    expect((await put(t.app, `/oga/organiser/events/${eventId}/visitor-directory`, { fields: [] }, rivalOrganiser)).code).toBe(404);
    expect((await get(t.app, `/oga/organiser/events/${eventId}/visitor-directory`, rivalOrganiser)).code).toBe(404);
    const exhibitor = await t.app.db
      .insertInto('exhibitors')
      .values({ name: 'Rival Exhibitor', legal_name: 'Rival Exhibitor', logo_url: '', organisation_id: rival.organisationId, code: null })
      .returning('id')
      .executeTakeFirstOrThrow();
    const participation = await t.app.db
      .insertInto('participations')
      .values({ exhibitor_id: exhibitor.id, event_id: rival.eventId, booth_num: 'R1', displayed_modules: JSON.stringify(['Leadgrab']), flags: JSON.stringify({}) })
      .returning('id')
      .executeTakeFirstOrThrow();
    await insertTeamUser(t.app, { login: `dir-rival-${engine}`, participationId: participation.id, eventId: rival.eventId, quota: null });
    await t.app.db
      .insertInto('visitors')
      .values({
        event_id: rival.eventId,
        badge_code: 'RIVAL-V1',
        name: 'Rival Visitor',
        salutation: '',
        company: 'Rival Co',
        business_nature: '',
        job_title: '',
        country: '',
        mobile: '',
        email: '',
        phone: '',
        address: '',
      })
      .execute();
    await t.app.db
      .updateTable('events')
      .set({ visitor_directory_fields: JSON.stringify(['name', 'company']) })
      .where('id', '=', rival.eventId)
      .execute();
    const rivalUser = await login(t.app, `dir-rival-${engine}`);
    const theirs = await everything(rivalUser, 50);
    expect(theirs.items).toEqual([{ badgeCode: 'RIVAL-V1', name: 'Rival Visitor', company: 'Rival Co' }]);
    const ours = await everything(demo, 500);
    expect(ours.items.map((item) => item.badgeCode)).not.toContain('RIVAL-V1');
    // Turned off: the directory is empty again.
    await put(t.app, `/oga/organiser/events/${eventId}/visitor-directory`, { fields: [] }, organiser);
    expect((await directory(device)).items).toEqual([]);
  });
});
