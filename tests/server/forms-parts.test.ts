import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_CONTRACTOR_LOGIN } from '../../src/server/db/seed';
import { bodyOf, createTestApp, ENGINES, get, login, post, put, type TestApp } from './helpers';

// P1 F4: S03 is shared by the exhibitor (booth design and height) and its booth
// contractor (forms.yaml `parts`). Each part is saved, submitted, closed by submit-once and
// approved on its own: the contractor's submission never locks the exhibitor out of its part.
// The demo exhibitor's S03 is submit-once; the limited exhibitor has no contractor.

const contractorPart = {
  contractor: { company: 'Rimba Stand Builders Sdn. Bhd.', email: 'hafiz@rimba-stands.example', contactPerson: 'Hafiz Ismail' },
  contractorType: 'contractor',
};

type Part = { id: string; status: string; locked: boolean; mine: boolean; submittedAt: string | null };
type Listed = { id: string; status: string; parts: Part[] | null };

describe.each(ENGINES)('P1 F4 S03 parts on %s', (engine) => {
  let t: TestApp;
  let demo: string;
  let limited: string;
  let builder: string;
  let organiser: string;

  beforeAll(async () => {
    t = await createTestApp(engine);
    [demo, limited, builder, organiser] = await Promise.all([login(t.app, 'demo'), login(t.app, 'limited'), login(t.app, DEMO_CONTRACTOR_LOGIN), login(t.app, 'organiser')]);
  });
  afterAll(async () => t?.close());

  const opened = async (token: string) =>
    (await get(t.app, '/oga/forms/s03', token)).data as {
      status: string;
      locked: boolean;
      parts: Part[];
      entry: { version: number; data: Record<string, unknown>; submittedData: Record<string, unknown> | null; approval: { status: string } | null } | null;
    };
  const listed = async (token: string) => ((await get(t.app, '/oga/forms', token)).data as Listed[]).find((form) => form.id === 's03')!;
  const partOf = (parts: Part[], id: string) => parts.find((part) => part.id === id)!;
  const stored = async (loginKey: string) => {
    const user = await t.app.db.selectFrom('users').select('participation_id').where('login_key', '=', loginKey).executeTakeFirstOrThrow();
    return t.app.db.selectFrom('form_entries').selectAll().where('participation_id', '=', user.participation_id!).where('form_id', '=', 's03').executeTakeFirstOrThrow();
  };

  it("a contractor's submission closes its own part only: the exhibitor still saves and submits the booth; approval and submit-once are per part", async () => {
    // The exhibitor starts the booth part; the contractor submits its part (submit-once).
    expect(bodyOf(await put(t.app, '/oga/forms/s03/draft', { data: { boothHeight: 2.3 }, version: 0 }, demo))).toMatchObject({ code: 200, data: { version: 1 } });
    expect(bodyOf(await post(t.app, '/oga/forms/s03/submit', { data: contractorPart, version: 1 }, builder))).toMatchObject({ code: 200, data: { version: 2 } });
    const afterContractor = await stored('demo');
    expect(afterContractor.submitted_data).toEqual(contractorPart);
    expect(afterContractor.data).toEqual({ ...contractorPart, boothHeight: 2.3 });

    // The contractor's part is closed for the contractor (submit-once), and for the exhibitor too.
    expect((await opened(builder)).locked).toBe(true);
    expect(bodyOf(await put(t.app, '/oga/forms/s03/draft', { data: { ...contractorPart, contractorType: 'standBuilder' }, version: 2 }, builder))).toMatchObject({
      error: 'submitOnce',
    });
    expect(bodyOf(await post(t.app, '/oga/forms/s03/submit', { data: contractorPart, version: 2 }, builder))).toMatchObject({ error: 'submitOnce' });
    const changed = await put(t.app, '/oga/forms/s03/draft', { data: { ...contractorPart, contractorType: 'standBuilder', boothHeight: 2.3 }, version: 2 }, demo);
    expect(bodyOf(changed)).toMatchObject({ error: 'submitOnce' });
    expect((await stored('demo')).version).toBe(2);

    // The exhibitor's booth part is open: listed as a draft beside the submitted contractor part.
    const exhibitorView = await opened(demo);
    expect(exhibitorView.locked).toBe(false);
    expect(exhibitorView.status).toBe('draft');
    expect(partOf(exhibitorView.parts, 'exhibitor')).toMatchObject({ status: 'draft', locked: false, mine: true });
    expect(partOf(exhibitorView.parts, 'contractor')).toMatchObject({ status: 'submitted', locked: true, mine: true });
    expect((await listed(builder)).status).toBe('submitted');
    expect((await listed(demo)).parts!.map((part) => [part.id, part.status])).toEqual([
      ['exhibitor', 'draft'],
      ['contractor', 'submitted'],
    ]);
    // The organiser's progress matrix shows each part; the contractor's part alone is no submitted S03.
    const demoProgress = async () => {
      const matrix = (await get(t.app, '/oga/organiser/progress', organiser)).data as {
        forms: Array<{ id: string; parts?: Array<{ id: string; title: string }> }>;
        rows: Array<{ exhibitor: string; statuses: Record<string, string>; parts: Record<string, Record<string, string>>; missingMandatory: string[] }>;
      };
      expect(matrix.forms.find((form) => form.id === 's03')!.parts).toEqual([
        { id: 'exhibitor', title: 'forms.parts.exhibitor' },
        { id: 'contractor', title: 'forms.parts.contractor' },
      ]);
      return matrix.rows.find((row) => row.exhibitor === 'Borneo Botanica')!;
    };
    const halfway = await demoProgress();
    expect(halfway.statuses.s03).toBe('draft');
    expect(halfway.parts.s03).toEqual({ exhibitor: 'draft', contractor: 'submitted' });
    expect(halfway.missingMandatory).toContain('s03');

    // The exhibitor saves (the contractor's part sent back unchanged) and submits its booth above 2.44 m.
    expect(bodyOf(await put(t.app, '/oga/forms/s03/draft', { data: { ...contractorPart, boothHeight: 3.1 }, version: 2 }, demo))).toMatchObject({
      code: 200,
      data: { version: 3 },
    });
    expect(bodyOf(await post(t.app, '/oga/forms/s03/submit', { data: { ...contractorPart, boothHeight: 3.1 }, version: 3 }, demo))).toMatchObject({
      code: 200,
      data: { version: 4 },
    });
    const afterExhibitor = await stored('demo');
    expect(afterExhibitor.submitted_data).toEqual({ ...contractorPart, boothHeight: 3.1 });
    expect(afterExhibitor.approval_status).toBe('pending');
    expect((await listed(demo)).parts!.map((part) => [part.id, part.status])).toEqual([
      ['exhibitor', 'pendingApproval'],
      ['contractor', 'submitted'],
    ]);
    // The decision is the exhibitor's part's: the contractor's list does not read it.
    expect((await listed(builder)).status).toBe('submitted');
    expect((await opened(builder)).entry!.approval).toBeNull();

    const whole = await demoProgress();
    expect(whole.statuses.s03).toBe('pendingApproval');
    expect(whole.parts.s03).toEqual({ exhibitor: 'pendingApproval', contractor: 'submitted' });
    expect(whole.missingMandatory).not.toContain('s03');

    // Now both parts are closed for the exhibitor (submit-once per part).
    expect((await opened(demo)).locked).toBe(true);
    expect(bodyOf(await post(t.app, '/oga/forms/s03/submit', { data: { ...contractorPart, boothHeight: 2.2 }, version: 4 }, demo))).toMatchObject({ error: 'submitOnce' });

    // The organiser approves the booth; the approval list shows the booth, and the decision stays.
    const waiting = (await get(t.app, '/oga/approvals', organiser)).data as Array<{
      id: number;
      formCode: string;
      part: { id: string; title: string } | null;
      submittedAt: string;
      data: { boothHeight: number };
    }>;
    const booth = waiting.find((item) => item.formCode === 'S03' && item.data.boothHeight === 3.1)!;
    // The decision is named as the booth part's, dated by that part's own submission.
    expect(booth.part).toEqual({ id: 'exhibitor', title: 'forms.parts.exhibitor' });
    expect(booth.submittedAt).toBe((afterExhibitor.parts as Record<string, { submittedAt: string }>).exhibitor!.submittedAt);
    expect(waiting.filter((item) => item.formCode !== 'S03').every((item) => item.part === null)).toBe(true);
    expect((await post(t.app, `/oga/approvals/${booth.id}`, { decision: 'approved' }, organiser)).code).toBe(200);
    expect(partOf((await opened(demo)).parts, 'exhibitor').status).toBe('approved');
  });

  it("a contractor's submission keeps the decision on the exhibitor's booth; the exhibitor's own submission resets it", async () => {
    // The limited exhibitor (no contractor; its S03 made not submit-once here) fills both parts and submits: both are sent.
    const user = await t.app.db.selectFrom('users').select('participation_id').where('login_key', '=', 'limited').executeTakeFirstOrThrow();
    const participation = await t.app.db.selectFrom('participations').select('flags').where('id', '=', user.participation_id!).executeTakeFirstOrThrow();
    await t.app.db
      .updateTable('participations')
      .set({ flags: JSON.stringify({ ...participation.flags, s03SubmitOnceOnly: false }) })
      .where('id', '=', user.participation_id!)
      .execute();
    const both = { ...contractorPart, boothHeight: 2.9 };
    expect(bodyOf(await post(t.app, '/oga/forms/s03/submit', { data: both, version: 0 }, limited))).toMatchObject({ code: 200, data: { version: 1 } });
    const first = await stored('limited');
    expect(first.submitted_data).toEqual(both);
    expect(first.approval_status).toBe('pending');
    expect(Object.keys(first.parts ?? {}).sort()).toEqual(['contractor', 'exhibitor']);
    const waiting = (await get(t.app, '/oga/approvals', organiser)).data as Array<{ id: number; formCode: string; data: { boothHeight: number } }>;
    const booth = waiting.find((item) => item.formCode === 'S03' && item.data.boothHeight === 2.9)!;
    expect((await post(t.app, `/oga/approvals/${booth.id}`, { decision: 'approved' }, organiser)).code).toBe(200);

    // Its booth part unchanged, a change to the contractor's part alone resends that part only:
    // the booth's approval stays.
    const renamed = { ...both, contractor: { ...contractorPart.contractor, company: 'Rimba Stands (M) Sdn. Bhd.' } };
    expect(bodyOf(await post(t.app, '/oga/forms/s03/submit', { data: renamed, version: 1 }, limited))).toMatchObject({ code: 200, data: { version: 2 } });
    const second = await stored('limited');
    expect(second.submitted_data).toEqual(renamed);
    expect(second.approval_status).toBe('approved');
    expect(second.parts!.exhibitor).toEqual(first.parts!.exhibitor);
    expect(second.parts!.contractor!.submittedAt).not.toBe(first.parts!.contractor!.submittedAt);

    // A new booth height is a new submission of the booth: it waits for the organiser again.
    expect(bodyOf(await post(t.app, '/oga/forms/s03/submit', { data: { ...renamed, boothHeight: 3.3 }, version: 2 }, limited))).toMatchObject({ code: 200 });
    expect((await stored('limited')).approval_status).toBe('pending');
  });

  it("what is wrong in the other side's part does not refuse a part's submission; what is wrong in one's own does", async () => {
    // The contractor's part is required (contractor, contractorType); the exhibitor submits its booth without it.
    const fresh = await createTestApp(engine);
    try {
      const exhibitor = await login(fresh.app, 'demo');
      const answer = await post(fresh.app, '/oga/forms/s03/submit', { data: { boothHeight: 2.2 }, version: 0 }, exhibitor);
      expect(bodyOf(answer)).toMatchObject({ code: 200 });
      const contractor = await login(fresh.app, DEMO_CONTRACTOR_LOGIN);
      const refused = await post(fresh.app, '/oga/forms/s03/submit', { data: { contractorType: 'contractor' }, version: 1 }, contractor);
      expect(bodyOf(refused)).toMatchObject({ error: 'validationFailed' });
      const paths = (refused.data as { errors: Array<{ path: string }> }).errors.map((error) => error.path);
      expect(paths).toContain('/contractor');
      expect(paths.every((path) => !path.startsWith('/booth'))).toBe(true);
    } finally {
      await fresh.close();
    }
  });
  it("each side submits its part alone, in either order: a checkbox's default in the part nobody touched is no entry, and an empty file reference is no change to the other side's part", async () => {
    const fresh = await createTestApp(engine);
    try {
      const [exhibitor, contractor] = await Promise.all([login(fresh.app, 'demo'), login(fresh.app, DEMO_CONTRACTOR_LOGIN)]);
      const s03 = async (token: string) => (await get(fresh.app, '/oga/forms/s03', token)).data as { parts: Array<Part & { own: boolean }> };
      const s03Of = async () => {
        const user = await fresh.app.db.selectFrom('users').select('participation_id').where('login_key', '=', 'demo').executeTakeFirstOrThrow();
        return fresh.app.db.selectFrom('form_entries').selectAll().where('participation_id', '=', user.participation_id!).where('form_id', '=', 's03').executeTakeFirstOrThrow();
      };
      // What the browser sends for the exhibitor: its booth, and the defaults the form fills in elsewhere.
      const booth = { contractor: { useOfficialContractor: false }, boothDesign: {}, boothHeight: 3.2 };
      expect(bodyOf(await put(fresh.app, '/oga/forms/s03/draft', { data: booth, version: 0 }, exhibitor))).toMatchObject({ code: 200, data: { version: 1 } });
      expect((await s03(exhibitor)).parts.map((part) => [part.id, part.status, part.own])).toEqual([
        ['exhibitor', 'draft', true],
        ['contractor', 'notStarted', false],
      ]);
      expect(bodyOf(await post(fresh.app, '/oga/forms/s03/submit', { data: booth, version: 1 }, exhibitor))).toMatchObject({ code: 200, data: { version: 2 } });
      expect(Object.keys((await s03Of()).parts ?? {})).toEqual(['exhibitor']);
      expect((await s03Of()).approval_status).toBe('pending');
      expect(((await get(fresh.app, '/oga/forms', contractor)).data as Array<{ id: string; missingPrerequisites: string[] }>).find((form) => form.id === 's05')).toBeDefined();

      // The contractor's form holds an empty booth design (hidden from it): no change to the exhibitor's part.
      expect((await s03(contractor)).parts.map((part) => [part.id, part.mine, part.own])).toEqual([
        ['exhibitor', false, false],
        ['contractor', true, true],
      ]);
      const answer = await post(fresh.app, '/oga/forms/s03/submit', { data: { ...contractorPart, boothDesign: {} }, version: 2 }, contractor);
      expect(bodyOf(answer)).toMatchObject({ code: 200, data: { version: 3 } });
      const both = await s03Of();
      expect(Object.keys(both.parts ?? {}).sort()).toEqual(['contractor', 'exhibitor']);
      expect(both.submitted_data).toEqual({ ...contractorPart, boothHeight: 3.2 });
      expect(both.approval_status).toBe('pending');
      const forms = (await get(fresh.app, '/oga/forms', contractor)).data as Array<{ id: string; missingPrerequisites: string[] }>;
      expect(forms.filter((form) => form.id === 's05' || form.id === 's08').map((form) => [form.id, form.missingPrerequisites])).toEqual([
        ['s05', []],
        ['s08', []],
      ]);
    } finally {
      await fresh.close();
    }
  });
});
