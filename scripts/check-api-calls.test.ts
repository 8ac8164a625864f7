import { describe, expect, it } from 'vitest';
import { untypedApiCallProblem } from './check';

// `npm run check` fails on a browser call that does not name a route of the OpenAPI document:
// a hand-typed answer, and any call of the untyped client outside src/lib, downloads included.

describe('browser API calls typed from the route schemas', () => {
  it('an untyped download in a feature is a problem naming the file', () => {
    const text = 'void api.download(`/uploads/${file.id}`, file.name);';
    expect(untypedApiCallProblem('src/features/approvals/pages/ApprovalsPage.tsx', text)).toMatch(
      /^src\/features\/approvals\/pages\/ApprovalsPage\.tsx: calls the untyped API client/,
    );
  });

  it('an untyped post split over lines is a problem too', () => {
    expect(untypedApiCallProblem('src/app/layout/X.tsx', "void api\n  .post('/auth/logout', undefined, {})")).not.toBeNull();
  });

  it('a hand-written answer type is a problem', () => {
    expect(untypedApiCallProblem('src/features/x/Y.tsx', "await api.get<Lead>('/leads/1')")).toMatch(/hand-written answer type/);
  });

  it('typed calls and the client wiring in src/lib are fine', () => {
    expect(untypedApiCallProblem('src/features/x/Y.tsx', "typedApi.download('/uploads/{id}', name, { path: { id } }); typedApi.post('/auth/logout')")).toBeNull();
    expect(untypedApiCallProblem('src/lib/typed-api.ts', 'return client.download(path, fileName); api.download(p, f)')).toBeNull();
  });
});
