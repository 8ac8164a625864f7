import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bodyOf, createTestApp, ENGINES, get, insertTeamUser, login, post, put, type TestApp } from './helpers';

// LD4: CRM-ready exports on both engines: the exhibitor's mapping (a Salesforce or HubSpot
// preset, or its own columns) names and orders the columns of its next CSV and XLSX exports;
// visitor fields the organiser hides stay out; a team user reads it but cannot change it.

describe.each(ENGINES)('export mapping on %s', (engine) => {
  let t: TestApp;
  let demo: string;
  let organiser: string;

  const csvOf = async (token: string) => {
    const made = await post<{ id: number }>(t.app, '/oga/leads/exports', { format: 'csv' }, token);
    expect(made.code).toBe(200);
    const file = await t.app.inject({ method: 'GET', url: `/oga/leads/exports/${made.data.id}/file`, headers: { authorization: `Bearer ${token}` } });
    return file.body.replace(/^\ufeff/, '').split('\r\n');
  };

  beforeAll(async () => {
    t = await createTestApp(engine);
    [demo, organiser] = await Promise.all([login(t.app, 'demo'), login(t.app, 'organiser')]);
  });
  afterAll(async () => t?.close());

  it('LD4: the Salesforce and HubSpot presets give their import columns; a custom mapping its own; hidden visitor fields stay out', async () => {
    expect((await get(t.app, '/oga/leads/export-mapping', demo)).data.mapping).toEqual({ preset: 'portal', columns: [] });
    expect((await put(t.app, '/oga/leads/export-mapping', { preset: 'salesforce', columns: [] }, demo)).code).toBe(200);
    const lead = await t.app.db
      .selectFrom('leads')
      .select(['visitor_name', 'email'])
      .where('visitor_name', 'like', '% %')
      .where('email', '!=', '')
      .orderBy('scanned_at', 'desc')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    const salesforce = await csvOf(demo);
    expect(salesforce[0]).toBe('Salutation,First Name,Last Name,Company,Title,Email,Phone,Mobile,Street,Country,Industry,Rating,Description');
    const words = lead.visitor_name.trim().split(/\s+/);
    expect(salesforce.some((line) => line.includes(`,${words.slice(0, -1).join(' ')},${words.at(-1)},`) && line.includes(lead.email))).toBe(true);

    await put(t.app, '/oga/leads/export-mapping', { preset: 'hubspot', columns: [] }, demo);
    expect((await csvOf(demo))[0]).toBe('First Name,Last Name,Email,Company Name,Job Title,Phone Number,Mobile Phone Number,Street Address,Country/Region,Industry,Message');

    const custom = [
      { field: 'email', header: 'E-mail address' },
      { field: 'phone', header: 'Tel' },
      { field: 'temperature', header: 'Heat' },
    ];
    const saved = await put(t.app, '/oga/leads/export-mapping', { preset: 'custom', columns: custom }, demo);
    expect(saved.data).toEqual({ preset: 'custom', columns: custom });
    expect((await csvOf(demo))[0]).toBe('E-mail address,Tel,Heat');
    // The organiser hides phone numbers: the mapped column goes too.
    await put(t.app, '/oga/organiser/lead-fields', { hidden: ['phone'] }, organiser);
    expect((await csvOf(demo))[0]).toBe('E-mail address,Heat');
    await put(t.app, '/oga/organiser/lead-fields', { hidden: [] }, organiser);

    const audit = await t.app.db.selectFrom('audit_log').select('after').where('action', '=', 'leads.exportMapping').orderBy('id').execute();
    expect(audit.map((row) => (row.after as { preset: string }).preset)).toEqual(['salesforce', 'hubspot', 'custom']);
    // Back to the portal's own export.
    await put(t.app, '/oga/leads/export-mapping', { preset: 'portal', columns: [] }, demo);
    expect((await csvOf(demo))[0]).toContain('Visitor name');
  });

  it('LD4: a custom mapping without columns or with an unknown field is refused and changes nothing; a team user cannot change it', async () => {
    expect(bodyOf(await put(t.app, '/oga/leads/export-mapping', { preset: 'custom', columns: [] }, demo))).toMatchObject({ code: 601, error: 'validationFailed' });
    expect(bodyOf(await put(t.app, '/oga/leads/export-mapping', { preset: 'custom', columns: [{ field: 'email', header: '   ' }] }, demo))).toMatchObject({
      error: 'validationFailed',
    });
    expect(bodyOf(await put(t.app, '/oga/leads/export-mapping', { preset: 'custom', columns: [{ field: 'shoeSize', header: 'S' }] }, demo))).toMatchObject({ error: 'badRequest' });
    expect((await get(t.app, '/oga/leads/export-mapping', demo)).data.mapping.preset).toBe('portal');
    const user = await t.app.db.selectFrom('users').select(['participation_id', 'event_id']).where('login', '=', 'demo').executeTakeFirstOrThrow();
    await insertTeamUser(t.app, { login: `mapping-member-${engine}`, participationId: user.participation_id!, eventId: user.event_id!, quota: null });
    const member = await login(t.app, `mapping-member-${engine}`);
    expect((await get(t.app, '/oga/leads/export-mapping', member)).code).toBe(200);
    expect((await put(t.app, '/oga/leads/export-mapping', { preset: 'hubspot', columns: [] }, member)).code).toBe(403);
  });
});
