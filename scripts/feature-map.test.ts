import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from './catalogue-source';
import { type Facts, FEATURE_MAP, featureMapProblems, idPattern, idsIn, parseFeatureMap, renderFeatureMap, unlistedIdProblems } from './feature-map';

// The requirement map (docs/features.md): `npm run check` fails on an id used in the code but not
// listed there, and on generated columns that no longer say what the code base says.

const MAP = `# Requirement map

## F — forms

| Id | Requirement | Screens | Routes | Server | Tests |
|---|---|---|---|---|---|
| F4 | S03 booth info: contractor, booth design. | — | — | — | — |
| F9 | Draft save before submit \\| submit once. | — | — | — | — |

## LD — leads

| Id | Requirement | Screens | Routes | Server | Tests |
|---|---|---|---|---|---|
| LD1 | Lead capture API. | — | — | — | — |
| LD2 | Lead list. | — | — | — | — |
| LD3 | Qualify a lead. | — | — | — | — |
`;

/** An id no requirement has, written so that this file does not use it (the check reads this file too). */
const MADE_UP_ID = `LD${9}`;

const ids = (text: string) => idsIn(text, idPattern(parseFeatureMap(MAP).prefixes)).map((use) => use.id);

describe('requirement ids in the code', () => {
  it('finds ids in comments and test titles, longest prefix first', () => {
    expect(ids("// LD1: the scan\nit('F9 F4: a draft', …)")).toEqual(['LD1', 'F9', 'F4']);
  });

  it('reads a range as every id in it', () => {
    expect(ids('Lead capture (LD1-LD3), forms F4–F9')).toEqual(['LD1', 'LD2', 'LD3', 'F4', 'F5', 'F6', 'F7', 'F8', 'F9']);
  });

  it('does not take form codes, booth numbers, URL escapes or colours for ids', () => {
    expect(ids("S03 and S01; booth 'F1' or 'H1-01'; %E5%B1; #F4F4F4; LDX1; F4a")).toEqual([]);
  });

  it('gives the line of each use', () => {
    expect(idsIn('one\ntwo LD2\nthree', idPattern(['LD']))).toEqual([{ id: 'LD2', line: 2 }]);
  });
});

describe('npm run check: every id used has its row', () => {
  it('passes when every id used is listed', () => {
    expect(unlistedIdProblems(MAP, [{ path: 'src/a.ts', text: '// LD1 and F9' }])).toEqual([]);
  });

  it('fails on a made-up id, naming the file and line', () => {
    const problems = unlistedIdProblems(MAP, [{ path: 'tests/server/leads.test.ts', text: `\nit('${MADE_UP_ID} a lead from nowhere', …)` }]);
    expect(problems).toEqual([expect.stringContaining(`tests/server/leads.test.ts:2: requirement ${MADE_UP_ID} is not in docs/features.md`)]);
  });

  it('fails on an id of a group the map does not have rows for yet (F10 when only F4 and F9 are listed)', () => {
    expect(unlistedIdProblems(MAP, [{ path: 'src/b.ts', text: '/** F10: the detail page */' }])).toHaveLength(1);
  });

  it('fails on an id listed twice', () => {
    expect(unlistedIdProblems(`${MAP}| LD1 | Again. | — | — | — | — |\n`, [])).toEqual([expect.stringContaining('LD1 has a second row')]);
  });

  it("the project's own files use no id missing from its map", () => {
    expect(featureMapProblems()).toEqual([]);
  });
});

describe('the generated columns', () => {
  const facts: Facts = {
    files: [
      { path: 'src/server/modules/leads/lead-routes.ts', text: "// LD2: list\napp.get('/leads', …)\n\n// LD3: qualify\napp.put('/leads/:id', …)\n" },
      { path: 'src/features/leads/pages/LeadsPage.tsx', text: "import { Filters } from '../components/Filters';" },
      { path: 'src/features/leads/components/Filters.tsx', text: '/** LD2: the filters */' },
      { path: 'tests/e2e/leads.spec.ts', text: "test('LD2 LD3: filter and qualify', …)" },
    ],
    routes: [
      { method: 'GET', url: '/oga/leads', file: 'src/server/modules/leads/lead-routes.ts', line: 2, summary: '', screen: 'leads' },
      { method: 'PUT', url: '/oga/leads/:id', file: 'src/server/modules/leads/lead-routes.ts', line: 5, summary: '', screen: 'leadDetail' },
    ],
    screens: [
      { id: 'leads', path: '/lead/leads', page: 'leads/LeadsPage' },
      { id: 'leadDetail', path: '/lead/lead-detail', page: 'leads/LeadDetailPage' },
      { id: 'boothInfo', path: '/myParticipation/boothInfo', form: 's03' },
    ],
    formCodes: { S03: 's03' },
  };
  const rendered = renderFeatureMap(MAP, facts);
  const row = (id: string) => rendered.split('\n').find((line) => line.startsWith(`| ${id} |`));

  it("gives each route the ids of its own comments, and each id the routes' screens and the pages importing a file that names it", () => {
    expect(row('LD2')).toBe('| LD2 | Lead list. | `leads` /lead/leads | `GET /oga/leads` | `modules/leads` | `tests/e2e/leads.spec.ts` |');
    expect(row('LD3')).toBe('| LD3 | Qualify a lead. | `leadDetail` /lead/lead-detail | `PUT /oga/leads/:id` | `modules/leads` | `tests/e2e/leads.spec.ts` |');
  });

  it("gives a requirement that names a form's code the form's screens, and keeps an escaped pipe in a description", () => {
    expect(row('F4')).toBe('| F4 | S03 booth info: contractor, booth design. | `boothInfo` /myParticipation/boothInfo | — | — | — |');
    expect(row('F9')).toBe('| F9 | Draft save before submit \\| submit once. | — | — | — | — |');
  });

  it('keeps headings and prose, and renders the same map again unchanged', () => {
    expect(rendered.split('\n').filter((line) => !line.startsWith('| LD') && !line.startsWith('| F'))).toEqual(
      MAP.split('\n').filter((line) => !line.startsWith('| LD') && !line.startsWith('| F')),
    );
    expect(renderFeatureMap(rendered, facts)).toBe(rendered);
  });

  it('a stale column shows: a test file added for LD1 changes its row', () => {
    const withTest = renderFeatureMap(rendered, { ...facts, files: [...facts.files, { path: 'tests/server/scan.test.ts', text: "it('LD1 a scan')" }] });
    expect(withTest).not.toBe(rendered);
    expect(withTest).toContain('| LD1 | Lead capture API. | — | — | — | `tests/server/scan.test.ts` |');
  });

  it("the project's map lists every id of the specification's groups", () => {
    const map = parseFeatureMap(readFileSync(join(ROOT, FEATURE_MAP), 'utf8'));
    expect(map.prefixes).toEqual(['H', 'L', 'R', 'Y', 'S', 'P', 'C', 'E', 'F', 'V', 'LD', 'LA', 'CT', 'K', 'O']);
    expect(map.rows.map((r) => r.id)).toContain('LD6');
  });
});
