// The screen catalogue's types and rules. Pure data in, pure data out: the router, the menu,
// the browser guards and the server's permission hook all call these functions on the
// catalogue generated from screens.yaml, so access is decided the same way everywhere.

import { ORGANISER_MODULES, ROLES, type Role } from './roles';
import { ICON_NAMES, LAYOUTS, type IconName, type Screen } from './schemas/screen';

export interface Catalogue {
  modules: string[];
  screens: Screen[];
}

export interface MenuItem {
  id: string;
  path: string;
  label: string;
  icon?: IconName;
  children: MenuItem[];
}

/**
 * Spec §6: allowed when the screen names no module or the user has at least one of them, and
 * the screen names no roles or the user's role is one of them.
 */
export function canAccess(screen: Pick<Screen, 'modules' | 'roles'>, displayedModules: readonly string[], role?: Role): boolean {
  if (screen.roles && (!role || !screen.roles.includes(role))) return false;
  if (!screen.modules || screen.modules.length === 0) return true;
  return screen.modules.some((m) => displayedModules.includes(m));
}

export function findScreenByPath(catalogue: Catalogue, path: string): Screen | undefined {
  const clean = path.length > 1 ? path.replace(/\/+$/, '') : path;
  return catalogue.screens.find((s) => s.path === clean);
}

export function findScreen(catalogue: Catalogue, id: string): Screen | undefined {
  return catalogue.screens.find((s) => s.id === id);
}

/** Depth as a nested router would count it: layout, then each menu ancestor, then the screen. */
export function routeDepth(catalogue: Catalogue, screen: Screen): number {
  let depth = screen.layout === 'public' ? 1 : 2;
  let parent = screen.parent ? findScreen(catalogue, screen.parent) : undefined;
  const seen = new Set<string>([screen.id]);
  while (parent && !seen.has(parent.id)) {
    seen.add(parent.id);
    depth += 1;
    parent = parent.parent ? findScreen(catalogue, parent.parent) : undefined;
  }
  return depth;
}

/** Spec §2: a back arrow when nested deeper than two levels, except under digital-tools. */
export function showsBackArrow(catalogue: Catalogue, screen: Screen): boolean {
  return routeDepth(catalogue, screen) > 2 && !screen.path.startsWith('/digital-tools');
}

/**
 * The left menu (P3): main-layout screens the user may open, hidden ones dropped, children
 * under their parent. A group the user cannot open still shows when a child is allowed.
 */
export function buildMenu(catalogue: Catalogue, displayedModules: readonly string[], label: (key: string) => string = (k) => k, role?: Role): MenuItem[] {
  const visible = catalogue.screens.filter((s) => s.layout === 'main' && !s.hidden && canAccess(s, displayedModules, role));
  const byOrder = (a: Screen, b: Screen) => (a.order ?? 0) - (b.order ?? 0);
  const toItem = (s: Screen): MenuItem => ({
    id: s.id,
    path: s.path,
    label: label(s.menuLabel ?? s.title),
    icon: s.icon,
    children: visible
      .filter((c) => c.parent === s.id)
      .sort(byOrder)
      .map(toItem),
  });
  return visible
    .filter((s) => !s.parent || !visible.some((p) => p.id === s.parent))
    .sort(byOrder)
    .map(toItem);
}

export interface CatalogueCheckInput {
  /** Whether a key exists in a given language. */
  hasKey: (language: string, key: string) => boolean;
  languages: readonly string[];
  /** Whether a hand-written page named like `feature/PageName` exists. */
  pageExists: (page: string) => boolean;
  /** Whether a generated form with this id exists. */
  formExists: (form: string) => boolean;
}

/** Every problem in a catalogue, as readable sentences; empty when it is sound. */
export function checkCatalogue(raw: unknown, input: CatalogueCheckInput): string[] {
  const problems: string[] = [];
  if (!raw || typeof raw !== 'object') return ['the catalogue is not a YAML mapping'];
  const { modules, screens } = raw as Partial<Catalogue>;
  if (!Array.isArray(modules) || modules.some((m) => typeof m !== 'string')) problems.push('`modules` must be a list of names');
  if (!Array.isArray(screens)) return [...problems, '`screens` must be a list'];
  const known = new Set(Array.isArray(modules) ? modules : []);
  const ids = new Set<string>();
  const paths = new Set<string>();
  const allowedFields = new Set([
    'id',
    'path',
    'layout',
    'title',
    'menuLabel',
    'parent',
    'hidden',
    'modules',
    'roles',
    'icon',
    'order',
    'page',
    'form',
    'documentsOf',
    'available',
  ]);
  for (const [index, screen] of screens.entries()) {
    const where = `screen #${index + 1}${screen?.id ? ` (${screen.id})` : ''}`;
    if (!screen || typeof screen !== 'object') {
      problems.push(`${where}: not a mapping`);
      continue;
    }
    for (const field of Object.keys(screen)) if (!allowedFields.has(field)) problems.push(`${where}: unknown field "${field}"`);
    if (typeof screen.id !== 'string' || !/^[a-z][A-Za-z0-9]*$/.test(screen.id)) problems.push(`${where}: id must be camelCase`);
    else if (ids.has(screen.id)) problems.push(`${where}: duplicate id "${screen.id}"`);
    else ids.add(screen.id);
    if (typeof screen.path !== 'string' || !/^\/[A-Za-z0-9\-/]*$/.test(screen.path)) problems.push(`${where}: path must start with /`);
    else if (paths.has(screen.path)) problems.push(`${where}: duplicate path "${screen.path}"`);
    else paths.add(screen.path);
    if (!LAYOUTS.includes(screen.layout)) problems.push(`${where}: layout must be one of ${LAYOUTS.join(', ')}`);
    if (typeof screen.title !== 'string') problems.push(`${where}: title key missing`);
    for (const key of [screen.title, screen.menuLabel]) {
      if (typeof key !== 'string') continue;
      for (const language of input.languages) {
        if (!input.hasKey(language, key)) problems.push(`${where}: key "${key}" missing in locales/${language}.json`);
      }
    }
    for (const module of screen.modules ?? []) if (!known.has(module)) problems.push(`${where}: unknown module "${module}"`);
    if (screen.roles !== undefined && (!Array.isArray(screen.roles) || screen.roles.length === 0)) problems.push(`${where}: roles must be a non-empty list`);
    for (const role of Array.isArray(screen.roles) ? screen.roles : []) if (!ROLES.includes(role)) problems.push(`${where}: unknown role "${role}"`);
    // The organiser's API routes take their roles from their screens, and screens.yaml is edited
    // while the portal runs: a screen of an organiser module must say it is the organiser's alone,
    // so a slip in the file can never open organiser tools to exhibitors.
    const organiserModule = (screen.modules ?? []).find((module) => ORGANISER_MODULES.includes(module));
    if (organiserModule !== undefined && (!Array.isArray(screen.roles) || screen.roles.length !== 1 || screen.roles[0] !== 'organiser'))
      problems.push(`${where}: a screen of module "${organiserModule}" must say roles: [organiser]`);
    if (screen.icon !== undefined && !ICON_NAMES.includes(screen.icon)) problems.push(`${where}: unknown icon "${screen.icon}"`);
    const renderers = [screen.page, screen.form].filter((r) => r !== undefined).length;
    if (screen.available === false) {
      if (renderers > 0) problems.push(`${where}: a screen that is not available yet must not name a page or form`);
    } else if (renderers !== 1) problems.push(`${where}: needs exactly one of page or form (or available: false)`);
    if (screen.page !== undefined && !input.pageExists(screen.page)) problems.push(`${where}: page "${screen.page}" does not exist`);
    if (screen.form !== undefined && !input.formExists(screen.form)) problems.push(`${where}: form "${screen.form}" does not exist`);
    if (screen.documentsOf !== undefined) {
      if (!input.formExists(screen.documentsOf)) problems.push(`${where}: documentsOf: form "${screen.documentsOf}" does not exist`);
      if (screen.page === undefined) problems.push(`${where}: documentsOf needs the page that lists them`);
      if (screens.some((other) => other !== screen && other?.documentsOf === screen.documentsOf))
        problems.push(`${where}: another screen lists the documents of "${screen.documentsOf}"`);
    }
  }
  const parentOf = new Map(screens.filter((s) => s?.parent !== undefined).map((s) => [s.id, s.parent as string]));
  for (const screen of screens) {
    if (screen?.parent === undefined) continue;
    if (!ids.has(screen.parent)) {
      problems.push(`screen ${screen.id}: parent "${screen.parent}" does not exist`);
      continue;
    }
    const chain = new Set<string>([screen.id]);
    for (let parent: string | undefined = screen.parent; parent !== undefined; parent = parentOf.get(parent)) {
      if (chain.has(parent)) {
        problems.push(`screen ${screen.id}: parents form a loop`);
        break;
      }
      chain.add(parent);
    }
  }
  return problems;
}
