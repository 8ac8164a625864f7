import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, ENGINES, get, login, put, type TestApp } from './helpers';

// O1/O2: every seeded event and exhibitor passes the rules of the console that edits it — the
// organiser reads each one and saves it back unchanged, and the save succeeds.

describe.each(ENGINES)('seeded data saves unchanged (%s)', (engine) => {
  let t: TestApp;
  let organiser: string;

  beforeAll(async () => {
    t = await createTestApp(engine);
    organiser = await login(t.app, 'organiser');
  });
  afterAll(() => t.close());

  it('saves every seeded event and every exhibitor of each event unchanged', async () => {
    const events = (await get(t.app, '/oga/organiser/events', organiser)).data as { id: number; code: string; current: boolean }[];
    expect(events.length).toBeGreaterThan(1);
    const current = events.find((event) => event.current)!;
    const saved: string[] = [];
    for (const { id: eventId, code: eventCode } of events) {
      const { id: _id, ...event } = (await get(t.app, `/oga/organiser/events/${eventId}`, organiser)).data;
      const eventSave = await put(t.app, `/oga/organiser/events/${eventId}`, event, organiser);
      expect({ event: eventCode, code: eventSave.code, data: eventSave.data }).toEqual({ event: eventCode, code: 200, data: eventSave.data });
      saved.push(eventCode);

      expect((await put(t.app, '/oga/organiser/current-event', { eventId }, organiser)).code).toBe(200);
      const list = await get(t.app, '/oga/organiser/exhibitors?limit=50', organiser);
      expect(list.data.total).toBeLessThanOrEqual(50);
      for (const { id } of list.data.items as { id: number }[]) {
        const { id: _participation, status: _status, forms: _forms, ...exhibitor } = (await get(t.app, `/oga/organiser/exhibitors/${id}`, organiser)).data;
        const save = await put(t.app, `/oga/organiser/exhibitors/${id}`, exhibitor, organiser);
        expect({ exhibitor: `${eventCode}/${exhibitor.code}`, code: save.code, data: save.data }).toEqual({
          exhibitor: `${eventCode}/${exhibitor.code}`,
          code: 200,
          data: save.data,
        });
        saved.push(`${eventCode}/${exhibitor.code}`);
      }
    }
    expect(saved).toContain('AFHE2027/KOPI');
    expect((await put(t.app, '/oga/organiser/current-event', { eventId: current.id }, organiser)).code).toBe(200);
  });
});
