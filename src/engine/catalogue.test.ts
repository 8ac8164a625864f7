import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import {
  buildMenu,
  canAccess,
  checkCatalogue,
  findScreen,
  findScreenByPath,
  routeDepth,
  showsBackArrow,
  type Catalogue,
  type CatalogueCheckInput,
  type MenuItem,
} from './catalogue';
import type { Screen } from './schemas/screen';

// ---------------------------------------------------------------------------------------------
// Small in-memory catalogues
// ---------------------------------------------------------------------------------------------

function screen(partial: Partial<Screen> & Pick<Screen, 'id' | 'path'>): Screen {
  return { layout: 'main', title: `screens.${partial.id}`, available: false, ...partial };
}

const sample: Catalogue = {
  modules: ['Forms', 'Manuals', 'Leadgrab', 'Custom Tag', 'Support'],
  screens: [
    screen({ id: 'login', path: '/login', layout: 'public' }),
    screen({ id: 'home', path: '/home', hidden: true, order: 0 }),
    screen({ id: 'support', path: '/support', modules: ['Support'], order: 60, menuLabel: 'menu.eventSupport' }),
    screen({ id: 'manuals', path: '/manuals', modules: ['Manuals'], order: 40 }),
    screen({ id: 'manualDetail', path: '/manuals/detail', parent: 'manuals', hidden: true, modules: ['Manuals'] }),
    screen({ id: 'orderForms', path: '/orderForms', modules: ['Forms'], order: 30, icon: 'forms' }),
    screen({ id: 'promotionProfile', path: '/myParticipation/promotionProfile', parent: 'orderForms', hidden: true, modules: ['Forms'] }),
    screen({ id: 'digitalTools', path: '/digital-tools', modules: ['Leadgrab'], order: 50 }),
    screen({ id: 'leadReport', path: '/digital-tools/lead-report', parent: 'digitalTools', modules: ['Leadgrab'], order: 53 }),
    screen({ id: 'teamUser', path: '/digital-tools/team-user', parent: 'digitalTools', modules: ['Leadgrab'], order: 52 }),
    screen({ id: 'customTag', path: '/digital-tools/custom-tag', parent: 'digitalTools', modules: ['Custom Tag'], order: 54 }),
    screen({ id: 'faq', path: '/faq', parent: 'support', modules: ['Support'], order: 61 }),
    screen({ id: 'search', path: '/search', layout: 'account', hidden: true }),
    screen({ id: 'myAccount', path: '/my-account', layout: 'account' }),
  ],
};

function shape(items: MenuItem[]): unknown[] {
  return items.map((item) => (item.children.length ? { [item.id]: shape(item.children) } : item.id));
}

// ---------------------------------------------------------------------------------------------
// canAccess
// ---------------------------------------------------------------------------------------------

describe('P2 canAccess', () => {
  it('P2 allows a screen that names no module, whatever the user has', () => {
    expect(canAccess({}, [])).toBe(true);
    expect(canAccess({ modules: undefined }, ['Forms'])).toBe(true);
  });

  it('P2 treats an empty module list like no module (no check)', () => {
    expect(canAccess({ modules: [] }, [])).toBe(true);
  });

  it('P2 allows when the user has one of several modules', () => {
    const dashboard = { modules: ['EEC Dashboard', 'Leadgrab Dashboard'] };
    expect(canAccess(dashboard, ['Leadgrab Dashboard'])).toBe(true);
    expect(canAccess(dashboard, ['Forms', 'EEC Dashboard'])).toBe(true);
  });

  it('P2 refuses when the user has none of the modules', () => {
    const dashboard = { modules: ['EEC Dashboard', 'Leadgrab Dashboard'] };
    expect(canAccess(dashboard, [])).toBe(false);
    expect(canAccess(dashboard, ['Forms', 'Manuals'])).toBe(false);
  });

  it('P2 matches module names exactly (case and partial names do not count)', () => {
    expect(canAccess({ modules: ['Forms'] }, ['forms'])).toBe(false);
    expect(canAccess({ modules: ['Leadgrab Dashboard'] }, ['Leadgrab'])).toBe(false);
  });

  it('LD5 P1 a screen with roles opens only for those roles, even with the module', () => {
    const teamUsers = { modules: ['Leadgrab'], roles: ['exhibitor' as const] };
    expect(canAccess(teamUsers, ['Leadgrab'], 'exhibitor')).toBe(true);
    expect(canAccess(teamUsers, ['Leadgrab'], 'team_user')).toBe(false);
    expect(canAccess(teamUsers, ['Leadgrab'])).toBe(false);
    expect(canAccess(teamUsers, [], 'exhibitor')).toBe(false);
  });

  it('LD5 the real catalogue keeps "Team users" out of a team user\'s menu but not "Leads"', () => {
    const real = parse(readFileSync(join(__dirname, '../../screens.yaml'), 'utf8')) as Catalogue;
    const ids = (role: 'exhibitor' | 'team_user') =>
      buildMenu(real, ['Leadgrab', 'Leadgrab Dashboard'], (k) => k, role).flatMap((item) => [item.id, ...item.children.map((c) => c.id)]);
    expect(ids('exhibitor')).toEqual(expect.arrayContaining(['teamUser', 'leads']));
    expect(ids('team_user')).toContain('leads');
    expect(ids('team_user')).not.toContain('teamUser');
  });
});

// ---------------------------------------------------------------------------------------------
// findScreen / findScreenByPath
// ---------------------------------------------------------------------------------------------

describe('R2 findScreenByPath / findScreen', () => {
  it('R2 finds a screen by its exact path', () => {
    expect(findScreenByPath(sample, '/manuals')?.id).toBe('manuals');
    expect(findScreenByPath(sample, '/digital-tools/custom-tag')?.id).toBe('customTag');
  });

  it('R2 ignores a trailing slash (one or several)', () => {
    expect(findScreenByPath(sample, '/manuals/')?.id).toBe('manuals');
    expect(findScreenByPath(sample, '/manuals/detail//')?.id).toBe('manualDetail');
  });

  it('R1 returns undefined for an unknown path (the router then goes to /404)', () => {
    expect(findScreenByPath(sample, '/nowhere')).toBeUndefined();
    expect(findScreenByPath(sample, '/')).toBeUndefined();
    expect(findScreenByPath(sample, '/Manuals')).toBeUndefined();
  });

  it('R2 findScreen looks a screen up by id', () => {
    expect(findScreen(sample, 'faq')?.path).toBe('/faq');
    expect(findScreen(sample, 'missing')).toBeUndefined();
  });
});

// ---------------------------------------------------------------------------------------------
// routeDepth / showsBackArrow
// ---------------------------------------------------------------------------------------------

describe('Y2 back arrow: routeDepth and showsBackArrow', () => {
  const at = (id: string) => findScreen(sample, id)!;

  it('Y2 counts a public screen as depth 1 and a top-level main screen as depth 2', () => {
    expect(routeDepth(sample, at('login'))).toBe(1);
    expect(routeDepth(sample, at('manuals'))).toBe(2);
    expect(routeDepth(sample, at('myAccount'))).toBe(2);
  });

  it('Y2 adds one level per menu ancestor', () => {
    expect(routeDepth(sample, at('manualDetail'))).toBe(3);
    expect(routeDepth(sample, at('promotionProfile'))).toBe(3);
    const deeper: Catalogue = {
      modules: [],
      screens: [screen({ id: 'a', path: '/a' }), screen({ id: 'b', path: '/a/b', parent: 'a' }), screen({ id: 'c', path: '/a/b/c', parent: 'b' })],
    };
    expect(routeDepth(deeper, deeper.screens[2]!)).toBe(4);
  });

  it('Y2 stops at a parent id that does not exist', () => {
    const orphan = screen({ id: 'orphan', path: '/orphan', parent: 'ghost' });
    expect(routeDepth(sample, orphan)).toBe(2);
  });

  it('Y2 back arrow shows for a screen nested deeper than two levels', () => {
    expect(showsBackArrow(sample, at('manualDetail'))).toBe(true);
    expect(showsBackArrow(sample, at('promotionProfile'))).toBe(true);
    expect(showsBackArrow(sample, at('faq'))).toBe(true);
  });

  it('Y2 back arrow does not show at two levels or fewer', () => {
    expect(showsBackArrow(sample, at('manuals'))).toBe(false);
    expect(showsBackArrow(sample, at('home'))).toBe(false);
    expect(showsBackArrow(sample, at('login'))).toBe(false);
  });

  it('Y2 back arrow never shows under digital-tools, even when nested', () => {
    expect(routeDepth(sample, at('leadReport'))).toBe(3);
    expect(showsBackArrow(sample, at('leadReport'))).toBe(false);
    expect(showsBackArrow(sample, at('customTag'))).toBe(false);
    expect(showsBackArrow(sample, at('digitalTools'))).toBe(false);
  });
});

// ---------------------------------------------------------------------------------------------
// buildMenu
// ---------------------------------------------------------------------------------------------

describe('P3 menu: buildMenu', () => {
  const all = ['Forms', 'Manuals', 'Leadgrab', 'Custom Tag', 'Support'];

  it('P3 menu lists main-layout screens only, drops hidden ones, nests children and sorts by order', () => {
    expect(shape(buildMenu(sample, all))).toEqual(['orderForms', 'manuals', { digitalTools: ['teamUser', 'leadReport', 'customTag'] }, { support: ['faq'] }]);
  });

  it('P3 menu lists nothing when the user has no module (home is hidden, account screens excluded)', () => {
    expect(buildMenu(sample, [])).toEqual([]);
  });

  it('P3 menu drops screens the user has no module for', () => {
    expect(shape(buildMenu(sample, ['Manuals', 'Leadgrab']))).toEqual(['manuals', { digitalTools: ['teamUser', 'leadReport'] }]);
  });

  it('P3 menu shows an allowed child at top level when its parent is not allowed', () => {
    const menu = buildMenu(sample, ['Custom Tag']);
    expect(shape(menu)).toEqual(['customTag']);
    expect(menu[0]!.path).toBe('/digital-tools/custom-tag');
  });

  it('P3 menu shows a visible child at top level when its parent is hidden', () => {
    const catalogue: Catalogue = {
      modules: [],
      screens: [screen({ id: 'group', path: '/group', hidden: true }), screen({ id: 'child', path: '/group/child', parent: 'group' })],
    };
    expect(shape(buildMenu(catalogue, []))).toEqual(['child']);
  });

  it('P3 menu builds items with path, icon and the label key (menuLabel before title)', () => {
    const menu = buildMenu(sample, ['Forms', 'Support']);
    expect(menu).toEqual([
      { id: 'orderForms', path: '/orderForms', label: 'screens.orderForms', icon: 'forms', children: [] },
      {
        id: 'support',
        path: '/support',
        label: 'menu.eventSupport',
        icon: undefined,
        children: [{ id: 'faq', path: '/faq', label: 'screens.faq', icon: undefined, children: [] }],
      },
    ]);
  });

  it('P3 menu passes each label key through the label function', () => {
    const seen: string[] = [];
    const menu = buildMenu(sample, ['Support'], (key) => {
      seen.push(key);
      return key.toUpperCase();
    });
    expect(menu[0]!.label).toBe('MENU.EVENTSUPPORT');
    expect(menu[0]!.children[0]!.label).toBe('SCREENS.FAQ');
    expect(seen.sort()).toEqual(['menu.eventSupport', 'screens.faq']);
  });

  it('P3 menu treats a missing order as 0 and keeps ascending order', () => {
    const catalogue: Catalogue = {
      modules: [],
      screens: [screen({ id: 'third', path: '/third', order: 5 }), screen({ id: 'second', path: '/second' }), screen({ id: 'first', path: '/first', order: -1 })],
    };
    expect(shape(buildMenu(catalogue, []))).toEqual(['first', 'second', 'third']);
  });
});

// ---------------------------------------------------------------------------------------------
// checkCatalogue
// ---------------------------------------------------------------------------------------------

describe('R2 checkCatalogue', () => {
  const languages = ['en', 'cn', 'ja', 'vi'] as const;
  const keys = new Set(['screens.home', 'screens.manuals', 'screens.manualDetail', 'menu.accountHome', 'menu.optionalManuals']);

  function input(overrides: Partial<CatalogueCheckInput> = {}): CatalogueCheckInput {
    return {
      languages,
      hasKey: (_language, key) => keys.has(key),
      pageExists: (page) => page === 'home/HomePage',
      formExists: (form) => form === 's01',
      ...overrides,
    };
  }

  function sound() {
    return {
      modules: ['Manuals', 'Forms'],
      screens: [
        { id: 'home', path: '/home', layout: 'main', title: 'screens.home', menuLabel: 'menu.accountHome', hidden: true, icon: 'home', page: 'home/HomePage' },
        { id: 'manuals', path: '/manuals', layout: 'main', title: 'screens.manuals', menuLabel: 'menu.optionalManuals', modules: ['Manuals'], order: 40, available: false },
        { id: 'manualDetail', path: '/manuals/detail', layout: 'main', title: 'screens.manualDetail', parent: 'manuals', hidden: true, modules: ['Manuals'], form: 's01' },
      ] as Array<Record<string, unknown>>,
    };
  }

  it('R2 reports nothing for a sound catalogue', () => {
    expect(checkCatalogue(sound(), input())).toEqual([]);
  });

  it("O1 a screen of an organiser module must be the organiser's alone (the API routes take their roles from it)", () => {
    const withConsole = (roles?: string[]) => {
      const catalogue = sound();
      catalogue.modules.push('Organiser Console');
      catalogue.screens.push({
        id: 'console',
        path: '/organiser/console',
        layout: 'main',
        title: 'screens.home',
        hidden: true,
        modules: ['Organiser Console'],
        page: 'home/HomePage',
        ...(roles ? { roles } : {}),
      });
      return checkCatalogue(catalogue, input());
    };
    expect(withConsole(['organiser'])).toEqual([]);
    expect(withConsole()).toEqual([expect.stringContaining('must say roles: [organiser]')]);
    expect(withConsole(['organiser', 'exhibitor'])).toEqual([expect.stringContaining('must say roles: [organiser]')]);
  });

  it('R2 rejects something that is not a mapping', () => {
    expect(checkCatalogue(null, input())).toEqual(['the catalogue is not a YAML mapping']);
    expect(checkCatalogue('screens', input())).toEqual(['the catalogue is not a YAML mapping']);
  });

  it('R2 rejects missing modules and screens lists', () => {
    expect(checkCatalogue({}, input())).toEqual(['`modules` must be a list of names', '`screens` must be a list']);
    expect(checkCatalogue({ modules: ['Forms', 3], screens: [] }, input())).toEqual(['`modules` must be a list of names']);
  });

  it('R2 reports an unknown module', () => {
    const raw = sound();
    raw.screens[1]!.modules = ['Manuals', 'Manual'];
    expect(checkCatalogue(raw, input())).toEqual(['screen #2 (manuals): unknown module "Manual"']);
  });

  it('R2 reports a duplicate path', () => {
    const raw = sound();
    raw.screens[2]!.path = '/manuals';
    expect(checkCatalogue(raw, input())).toEqual(['screen #3 (manualDetail): duplicate path "/manuals"']);
  });

  it('R2 reports a duplicate id', () => {
    const raw = sound();
    raw.screens[2]!.id = 'manuals';
    raw.screens[2]!.parent = 'home';
    expect(checkCatalogue(raw, input())).toEqual(['screen #3 (manuals): duplicate id "manuals"']);
  });

  it('R2 reports an id that is not camelCase and a path without a leading slash', () => {
    const raw = sound();
    raw.screens[0]!.id = 'Home-page';
    raw.screens[0]!.path = 'home';
    raw.screens[0]!.layout = 'side';
    expect(checkCatalogue(raw, input())).toEqual([
      'screen #1 (Home-page): id must be camelCase',
      'screen #1 (Home-page): path must start with /',
      'screen #1 (Home-page): layout must be one of public, main, account',
    ]);
  });

  it('L1 R2 reports a title key missing in one language only', () => {
    const check = input({ hasKey: (language, key) => keys.has(key) && !(language === 'ja' && key === 'screens.manuals') });
    expect(checkCatalogue(sound(), check)).toEqual(['screen #2 (manuals): key "screens.manuals" missing in locales/ja.json']);
  });

  it('L1 R2 reports a menu label key missing in every language', () => {
    const raw = sound();
    raw.screens[1]!.menuLabel = 'menu.nothing';
    expect(checkCatalogue(raw, input())).toEqual(languages.map((language) => `screen #2 (manuals): key "menu.nothing" missing in locales/${language}.json`));
  });

  it('R2 reports a screen without a title key', () => {
    const raw = sound();
    delete raw.screens[1]!.title;
    expect(checkCatalogue(raw, input())).toEqual(['screen #2 (manuals): title key missing']);
  });

  it('R2 reports a page that does not exist', () => {
    const raw = sound();
    raw.screens[0]!.page = 'home/MissingPage';
    expect(checkCatalogue(raw, input())).toEqual(['screen #1 (home): page "home/MissingPage" does not exist']);
  });

  it('R2 reports a form that does not exist', () => {
    const raw = sound();
    raw.screens[2]!.form = 's99';
    expect(checkCatalogue(raw, input())).toEqual(['screen #3 (manualDetail): form "s99" does not exist']);
  });

  it('R2 reports an unknown field', () => {
    const raw = sound();
    raw.screens[1]!.modlues = ['Manuals'];
    expect(checkCatalogue(raw, input())).toEqual(['screen #2 (manuals): unknown field "modlues"']);
  });

  it('R2 reports an unknown icon', () => {
    const raw = sound();
    raw.screens[1]!.icon = 'rocket';
    expect(checkCatalogue(raw, input())).toEqual(['screen #2 (manuals): unknown icon "rocket"']);
  });

  it('R2 reports a parent that does not exist', () => {
    const raw = sound();
    raw.screens[2]!.parent = 'manual';
    expect(checkCatalogue(raw, input())).toEqual(['screen manualDetail: parent "manual" does not exist']);
  });

  it('R2 accepts a parent declared after its child', () => {
    const raw = sound();
    raw.screens.reverse();
    expect(checkCatalogue(raw, input())).toEqual([]);
  });

  it('R2 reports available:false together with a page', () => {
    const raw = sound();
    raw.screens[1]!.page = 'home/HomePage';
    expect(checkCatalogue(raw, input())).toEqual(['screen #2 (manuals): a screen that is not available yet must not name a page or form']);
  });

  it('R2 requires exactly one of page or form when the screen is available', () => {
    const none = sound();
    delete none.screens[0]!.page;
    expect(checkCatalogue(none, input())).toEqual(['screen #1 (home): needs exactly one of page or form (or available: false)']);
    const both = sound();
    both.screens[0]!.form = 's01';
    expect(checkCatalogue(both, input())).toEqual(['screen #1 (home): needs exactly one of page or form (or available: false)']);
  });

  it('R2 reports a screen entry that is not a mapping and keeps checking the others', () => {
    const raw = sound();
    (raw.screens as unknown[]).splice(1, 0, 'oops');
    expect(checkCatalogue(raw, input())).toEqual(['screen #2: not a mapping']);
  });
});

// ---------------------------------------------------------------------------------------------
// The real catalogue (screens.yaml) against the route table of spec §2
// ---------------------------------------------------------------------------------------------

describe('R2 real catalogue (screens.yaml) matches the spec §2 route table', () => {
  const file = join(__dirname, '../../screens.yaml');
  const real = parse(readFileSync(file, 'utf8')) as Catalogue;
  const at = (path: string): Screen => {
    const found = findScreenByPath(real, path);
    if (!found) throw new Error(`no screen for ${path}`);
    return found;
  };

  it('R2 is structurally sound (ids, paths, modules, parents, fields)', () => {
    const problems = checkCatalogue(real, {
      languages: ['en'],
      hasKey: () => true,
      pageExists: () => true,
      formExists: () => true,
    });
    expect(problems).toEqual([]);
  });

  it('R1 has the public routes /login, /401 and /404 in the public layout', () => {
    for (const path of ['/login', '/401', '/404']) {
      expect(at(path).layout).toBe('public');
      expect(at(path).modules ?? []).toEqual([]);
    }
  });

  it('R2 has every main-layout route with the module(s) of the spec table', () => {
    const table: Array<[string, string[]]> = [
      ['/home', []],
      ['/dashboard', ['EEC Dashboard', 'Leadgrab Dashboard']],
      ['/event-info', ['Event Info']],
      ['/orderForms', ['Forms']],
      ['/myParticipation/promotionProfile', ['Forms']],
      ['/myParticipation/productHighlights', ['Forms']],
      ['/myParticipation/boothInfo', ['Forms']],
      ['/myParticipation/exhibitorBadges', ['Forms']],
      ['/myParticipation/contractorBadges', ['Forms']],
      ['/myParticipation/visaInvitation', ['Forms']],
      ['/orderForms/visaInvitationDetail', ['Forms']],
      ['/myParticipation/vehicle', ['Forms']],
      ['/myParticipation/contractorVehicle', ['Forms']],
      ['/orderForms/detail', ['Forms']],
      // Spec: Forms; Leadgrab too, so a team user can open the leads it scanned (LD2).
      ['/lead/lead-detail', ['Forms', 'Leadgrab']],
      ['/manuals', ['Manuals']],
      ['/manuals/detail', ['Manuals']],
      ['/digital-tools', ['Leadgrab']],
      ['/digital-tools/introduction', ['Leadgrab']],
      ['/digital-tools/team-user', ['Leadgrab']],
      ['/digital-tools/lead-report', ['Leadgrab']],
      ['/digital-tools/custom-tag', ['Custom Tag']],
      ['/digital-tools/digital-showroom', ['Digital Showroom']],
      ['/support', ['Support']],
      ['/faq', ['Support']],
      ['/inviteClients', ['Invite Your Clients']],
      ['/announcements/detail', []],
      ['/downloadPoster', []],
    ];
    for (const [path, modules] of table) {
      const found = at(path);
      expect({ path, layout: found.layout, modules: [...(found.modules ?? [])].sort() }).toEqual({
        path,
        layout: 'main',
        modules: [...modules].sort(),
      });
    }
  });

  it('P2 /dashboard is open with either dashboard module and closed without', () => {
    expect(canAccess(at('/dashboard'), ['EEC Dashboard'])).toBe(true);
    expect(canAccess(at('/dashboard'), ['Leadgrab Dashboard'])).toBe(true);
    expect(canAccess(at('/dashboard'), ['Leadgrab', 'Forms'])).toBe(false);
    expect(canAccess(at('/home'), [])).toBe(true);
  });

  it('LD2 P1 the lead detail opens for an exhibitor with Forms or a team user with Leadgrab, never for a contractor (who holds Forms too)', () => {
    const detail = at('/lead/lead-detail');
    expect(canAccess(detail, ['Forms'], 'exhibitor')).toBe(true);
    expect(canAccess(detail, ['Leadgrab'], 'team_user')).toBe(true);
    expect(canAccess(detail, ['Forms'], 'contractor')).toBe(false);
    expect(canAccess(detail, ['Forms', 'Leadgrab'], 'organiser')).toBe(false);
  });

  it('R6 forms pages under /myParticipation and /orderForms/detail are hidden, with parent orderForms and module Forms', () => {
    const forms = real.screens.filter((s) => s.path.startsWith('/myParticipation/'));
    expect(forms.map((s) => s.path).sort()).toEqual([
      '/myParticipation/boothInfo',
      '/myParticipation/contractorAccess',
      '/myParticipation/contractorBadges',
      '/myParticipation/contractorVehicle',
      '/myParticipation/exhibitorBadges',
      '/myParticipation/productHighlights',
      '/myParticipation/promotionProfile',
      '/myParticipation/vehicle',
      '/myParticipation/vipInvitations',
      '/myParticipation/visaInvitation',
    ]);
    for (const s of [...forms, at('/orderForms/detail'), at('/orderForms/visaInvitationDetail')]) {
      expect({ path: s.path, hidden: s.hidden, parent: s.parent, modules: s.modules }).toEqual({
        path: s.path,
        hidden: true,
        parent: 'orderForms',
        modules: ['Forms'],
      });
    }
  });

  it('R2 hidden routes of the table are hidden: /home, /manuals/detail, /announcements/detail, /downloadPoster', () => {
    for (const path of ['/home', '/manuals/detail', '/announcements/detail', '/downloadPoster']) {
      expect({ path, hidden: at(path).hidden }).toEqual({ path, hidden: true });
    }
    for (const path of ['/dashboard', '/event-info', '/orderForms', '/manuals', '/digital-tools', '/support', '/inviteClients']) {
      expect({ path, hidden: at(path).hidden ?? false }).toEqual({ path, hidden: false });
    }
  });

  it('R2 /digital-tools has its children, and /support has /faq', () => {
    const children = (id: string) =>
      real.screens
        .filter((s) => s.parent === id)
        .map((s) => s.path)
        .sort();
    expect(children('digitalTools')).toEqual([
      '/digital-tools/api-keys',
      '/digital-tools/custom-tag',
      '/digital-tools/devices',
      '/digital-tools/digital-showroom',
      '/digital-tools/integrations',
      '/digital-tools/introduction',
      '/digital-tools/lead-report',
      '/digital-tools/leads',
      '/digital-tools/scanner',
      '/digital-tools/team-user',
    ]);
    expect(at('/digital-tools').id).toBe('digitalTools');
    expect(children('support')).toEqual(['/faq']);
    expect(at('/manuals/detail').parent).toBe('manuals');
  });

  it('R3 /announcements, /search and /my-account are in the account layout', () => {
    for (const path of ['/announcements', '/search', '/my-account']) {
      expect({ path, layout: at(path).layout }).toEqual({ path, layout: 'account' });
    }
  });

  it('P3 menu for modules Forms and Support is exactly orderForms and support at top level', () => {
    const menu = buildMenu(real, ['Forms', 'Support']);
    expect(menu.map((item) => item.id)).toEqual(['orderForms', 'support']);
    expect(menu[0]!.children).toEqual([]);
    expect(menu[1]!.children.map((item) => item.id)).toEqual(['faq']);
  });

  it('P3 menu for no module is empty (home is hidden)', () => {
    expect(buildMenu(real, [])).toEqual([]);
  });

  it('Y2 back arrow in the real catalogue: forms pages yes, top level and digital-tools no', () => {
    expect(showsBackArrow(real, at('/myParticipation/boothInfo'))).toBe(true);
    expect(showsBackArrow(real, at('/orderForms/detail'))).toBe(true);
    expect(showsBackArrow(real, at('/manuals/detail'))).toBe(true);
    expect(showsBackArrow(real, at('/orderForms'))).toBe(false);
    expect(showsBackArrow(real, at('/home'))).toBe(false);
    expect(showsBackArrow(real, at('/digital-tools/team-user'))).toBe(false);
    expect(showsBackArrow(real, at('/digital-tools/custom-tag'))).toBe(false);
  });
});

describe('R2 checkCatalogue parent loops', () => {
  it('R2 reports screens whose parents form a loop, and routeDepth still ends', () => {
    const looped: Catalogue = {
      modules: [],
      screens: [
        { id: 'a', path: '/a', layout: 'main', title: 't', parent: 'b', page: 'x/A' },
        { id: 'b', path: '/b', layout: 'main', title: 't', parent: 'a', page: 'x/B' },
      ],
    };
    const problems = checkCatalogue(looped, { languages: ['en'], hasKey: () => true, pageExists: () => true, formExists: () => true });
    expect(problems).toContain('screen a: parents form a loop');
    expect(routeDepth(looped, looped.screens[0]!)).toBe(3);
  });
});
