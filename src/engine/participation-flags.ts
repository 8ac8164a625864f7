import type { FormDefinition } from './forms/definitions';
import type { FlagGroups } from './schemas/event';

// Spec §3: the flags of an exhibitor's participation (O2: the organiser sets them per exhibitor,
// and an event's defaults for new exhibitors). The portal's own feature flags are listed here;
// the flags about a form (its sections, its second language, submit-once) are declared by that
// form in forms.yaml, so a new form brings its flags without code. Account info, the organiser
// console and the import read the groups from the form set in use.

export const FEATURE_FLAGS = ['eventShow', 'leadgrabShow', 'digitalShow', 'hideAccountHome', 'downloadPdf', 'countryRequired'] as const;
export type FeatureFlag = (typeof FEATURE_FLAGS)[number];

/** What a form declares about flags (forms.yaml `sectionFlags`, `languageFlag`, `submitOnceFlag`). */
export type FlagDeclarations = Pick<FormDefinition, 'sectionFlags' | 'languageFlag' | 'submitOnceFlag'>;

export function flagGroups(definitions: readonly FlagDeclarations[]): FlagGroups {
  const unique = (names: Array<string | null | undefined>) => [...new Set(names.filter((name): name is string => typeof name === 'string'))];
  return {
    feature: [...FEATURE_FLAGS],
    section: unique(definitions.flatMap((definition) => definition.sectionFlags ?? [])),
    language: unique(definitions.map((definition) => definition.languageFlag)),
    submitOnce: unique(definitions.map((definition) => definition.submitOnceFlag)),
  };
}

/** Every flag of a participation with the forms of this set: the feature flags, then the forms'. */
export function participationFlags(definitions: readonly FlagDeclarations[]): string[] {
  const groups = flagGroups(definitions);
  return [...groups.feature, ...groups.section, ...groups.language, ...groups.submitOnce];
}

type Role = 'sectionFlags' | 'languageFlag' | 'submitOnceFlag';

/**
 * forms.yaml's flag declarations that cannot be right, each at its pointer: a name of the portal's
 * own feature flags, a section or submit-once flag declared twice (each belongs to one form), a
 * name used in two roles. A language flag may be shared by several forms (one second language).
 */
export function flagDeclarationProblems(forms: ReadonlyArray<Record<string, unknown>>): Array<{ path: string; message: string }> {
  const problems: Array<{ path: string; message: string }> = [];
  const first = new Map<string, { role: Role; path: string }>();
  forms.forEach((form, index) => {
    const declared: Array<[Role, string, string]> = [];
    if (Array.isArray(form.sectionFlags))
      form.sectionFlags.forEach((name, at) => typeof name === 'string' && declared.push(['sectionFlags', name, `/forms/${index}/sectionFlags/${at}`]));
    if (typeof form.languageFlag === 'string') declared.push(['languageFlag', form.languageFlag, `/forms/${index}/languageFlag`]);
    if (typeof form.submitOnceFlag === 'string') declared.push(['submitOnceFlag', form.submitOnceFlag, `/forms/${index}/submitOnceFlag`]);
    for (const [role, name, path] of declared) {
      if ((FEATURE_FLAGS as readonly string[]).includes(name)) {
        problems.push({ path, message: `"${name}" is one of the portal's own flags (${FEATURE_FLAGS.join(', ')})` });
        continue;
      }
      const earlier = first.get(name);
      if (!earlier) first.set(name, { role, path });
      else if (!(role === 'languageFlag' && earlier.role === 'languageFlag')) problems.push({ path, message: `"${name}" is already declared at ${earlier.path}` });
    }
  });
  return problems;
}

/** The flags a form's schema names: `showIf` and `requiredWhenShown` (sections), `secondLanguage`, each with its JSON pointer. */
export function flagsNamedBy(schema: unknown, path = ''): Array<{ kind: 'section' | 'language'; name: string; path: string }> {
  if (Array.isArray(schema)) return schema.flatMap((node, index) => flagsNamedBy(node, `${path}/${index}`));
  if (typeof schema !== 'object' || schema === null) return [];
  const found: Array<{ kind: 'section' | 'language'; name: string; path: string }> = [];
  for (const [key, value] of Object.entries(schema)) {
    const at = `${path}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`;
    if (key === 'showIf' && typeof value === 'string') found.push({ kind: 'section', name: value, path: at });
    else if (key === 'secondLanguage' && typeof value === 'string') found.push({ kind: 'language', name: value, path: at });
    else if (key === 'requiredWhenShown' && typeof value === 'object' && value !== null && !Array.isArray(value)) {
      for (const [section, flag] of Object.entries(value)) if (typeof flag === 'string') found.push({ kind: 'section', name: flag, path: `${at}/${section}` });
    } else found.push(...flagsNamedBy(value, at));
  }
  return found;
}

/** A flag the form's schema names that its forms.yaml entry does not declare (it could never be set). */
export function undeclaredFlagProblems(definition: FlagDeclarations, schema: unknown, prefix = ''): Array<{ path: string; message: string }> {
  return flagsNamedBy(schema, prefix).flatMap(({ kind, name, path }) => {
    if ((FEATURE_FLAGS as readonly string[]).includes(name)) return [];
    if (kind === 'section' && !(definition.sectionFlags ?? []).includes(name)) return [{ path, message: `the flag "${name}" is not among the form's sectionFlags in forms.yaml` }];
    if (kind === 'language' && definition.languageFlag !== name) return [{ path, message: `the flag "${name}" is not the form's languageFlag in forms.yaml` }];
    return [];
  });
}

/** Quotas the member screens use (team users, contractor logins); form quotas come from the schemas' `quota` keyword. */
export const MEMBER_QUOTAS = ['teamUsers', 'contractors'] as const;
