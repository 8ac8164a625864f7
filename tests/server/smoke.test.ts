import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, ENGINES, get, login, type TestApp } from './helpers';
describe.each(ENGINES)('smoke on %s', (engine) => {
  let t: TestApp;
  beforeAll(async () => { const s = Date.now(); t = await createTestApp(engine); console.log(engine, 'app in', Date.now() - s); });
  afterAll(async () => t?.close());
  it('logs in', async () => {
    const token = await login(t.app, 'demo');
    const r = await get(t.app, '/oga/user/info', token);
    expect(r.code).toBe(200);
    console.log(r);
  });
});
