import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bodyOf, createTestApp, ENGINES, get, login, post, put, type TestApp } from './helpers';

// LD2: the organiser keeps visitor fields from the event's exhibitors, on both engines: the lead
// list, its detail, the incremental sync (an API key), exports and the offline visitor directory
// leave a hidden field out from the next read on; the change is audited; another organiser's
// setting or an unknown field is refused.

describe.each(ENGINES)('visitor fields kept from exhibitors on %s', (engine) => {
  let t: TestApp;
  let demo: string;
  let organiser: string;
  let eventId: number;

  const exportText = async (token: string) => {
    const made = await post<{ id: number }>(t.app, '/oga/leads/exports', { format: 'csv' }, token);
    expect(made.code).toBe(200);
    const file = await t.app.inject({ method: 'GET', url: `/oga/leads/exports/${made.data.id}/file`, headers: { authorization: `Bearer ${token}` } });
    return file.body;
  };

  beforeAll(async () => {
    t = await createTestApp(engine);
    [demo, organiser] = await Promise.all([login(t.app, 'demo'), login(t.app, 'organiser')]);
    eventId = (await t.app.db.selectFrom('users').select('event_id').where('login', '=', 'demo').executeTakeFirstOrThrow()).event_id!;
  });
  afterAll(async () => t?.close());

  it('LD2: hiding phone, mobile and job title takes them out of the list, detail, sync, exports and the directory at once; showing them again brings them back', async () => {
    const key = (await post<{ key: string }>(t.app, '/oga/api-keys', { name: 'CRM', scopes: ['leads:read'] }, demo)).data.key;
    // A lead with a phone number to hide.
    const withPhone = await t.app.db
      .selectFrom('leads')
      .select(['id', 'phone', 'job_title'])
      .where('phone', '!=', '')
      .where('job_title', '!=', '')
      .orderBy('id')
      .executeTakeFirstOrThrow();
    const before = (await get(t.app, `/oga/leads/${withPhone.id}`, demo)).data;
    expect(before.lead.phone).toBe(withPhone.phone);
    expect(before.hiddenFields).toEqual([]);
    expect(await exportText(demo)).toContain('Phone');
    await put(t.app, `/oga/organiser/events/${eventId}/visitor-directory`, { fields: ['name', 'company', 'jobTitle'] }, organiser);

    expect((await get(t.app, '/oga/organiser/lead-fields', organiser)).data).toEqual({ hidden: [] });
    const saved = await put(t.app, '/oga/organiser/lead-fields', { hidden: ['phone', 'jobTitle', 'mobile'] }, organiser);
    expect(saved.data).toEqual({ hidden: ['jobTitle', 'mobile', 'phone'] });

    const detail = (await get(t.app, `/oga/leads/${withPhone.id}`, demo)).data;
    expect(detail.hiddenFields).toEqual(['jobTitle', 'mobile', 'phone']);
    expect(detail.lead).toMatchObject({ phone: '', mobile: '', jobTitle: '' });
    expect(detail.lead.visitorName).not.toBe('');
    const list = (await get<{ items: Array<{ phone: string; mobile: string; jobTitle: string }> }>(t.app, '/oga/leads?limit=50', demo)).data.items;
    expect(list.every((lead) => lead.phone === '' && lead.mobile === '' && lead.jobTitle === '')).toBe(true);
    const synced = (await get<{ items: Array<{ phone: string; email: string }> }>(t.app, '/oga/leads?updatedSince=2000-01-01T00:00:00Z', key)).data.items;
    expect(synced.length).toBeGreaterThan(0);
    expect(synced.every((lead) => lead.phone === '')).toBe(true);
    expect(synced.some((lead) => lead.email !== '')).toBe(true);
    const csv = await exportText(demo);
    const header = csv.split('\r\n')[0]!;
    expect(header).not.toContain('Phone');
    expect(header).not.toContain('Mobile');
    expect(header).not.toContain('Job title');
    expect(header).toContain('Email');
    expect(csv).not.toContain(withPhone.phone);
    const directory = (await get(t.app, '/oga/leads/visitor-directory?limit=2', demo)).data;
    expect(directory.fields).toEqual(['name', 'company']);
    expect(Object.keys(directory.items[0]).sort()).toEqual(['badgeCode', 'company', 'name']);

    const audit = await t.app.db.selectFrom('audit_log').select(['before', 'after']).where('action', '=', 'event.leadFields').where('event_id', '=', eventId).execute();
    expect(audit).toHaveLength(1);
    expect(audit[0]!.after).toEqual({ hidden: ['jobTitle', 'mobile', 'phone'] });

    await put(t.app, '/oga/organiser/lead-fields', { hidden: [] }, organiser);
    expect((await get(t.app, `/oga/leads/${withPhone.id}`, demo)).data.lead.phone).toBe(withPhone.phone);
    expect((await get(t.app, '/oga/leads/visitor-directory?limit=2', demo)).data.fields).toEqual(['name', 'company', 'jobTitle']);
  });

  it('LD2: an unknown field is a coded bad request and changes nothing; exhibitors cannot set it', async () => {
    expect(bodyOf(await put(t.app, '/oga/organiser/lead-fields', { hidden: ['phone', 'shoeSize'] }, organiser))).toMatchObject({ error: 'badRequest' });
    expect((await get(t.app, '/oga/organiser/lead-fields', organiser)).data).toEqual({ hidden: [] });
    expect((await put(t.app, '/oga/organiser/lead-fields', { hidden: ['phone'] }, demo)).code).toBe(403);
  });
});
