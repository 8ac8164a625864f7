import { eventSettingNames } from '../../engine/forms/event-settings';
import { flagGroups, MEMBER_QUOTAS, participationFlags } from '../../engine/participation-flags';
import type { EventSettingName, FlagGroups } from '../../engine/schemas/event';
import { catalogue } from '../../generated/screens';
import type { FormRegistry } from '../plugins/forms/form-set';
import { ORGANISER_MODULES } from '../../engine/roles';

// O2: the names an organiser sets per event and per exhibitor, read from the declarations:
// deadline names and the forms' flags from forms.yaml (`deadlines:`, each form's flags), quota
// names from the schemas' `quota` keyword plus the member quotas, modules from the screen catalogue.

export interface SettingNames {
  /** Exhibitor modules (organiser modules are not an exhibitor's). */
  modules: string[];
  flags: string[];
  /** The flags by group, as the console shows them (the portal's features, then the forms'). */
  flagGroups: FlagGroups;
  deadlineNames: string[];
  quotaNames: string[];
  /** O2: the values of the forms set per event (forms.yaml `setting:` of a fee or an approval limit). */
  settings: EventSettingName[];
}

function quotaKeywords(node: unknown, found: Set<string>): void {
  if (Array.isArray(node)) for (const item of node) quotaKeywords(item, found);
  else if (node && typeof node === 'object') {
    for (const [key, value] of Object.entries(node)) {
      if (key === 'quota' && typeof value === 'string') found.add(value);
      else quotaKeywords(value, found);
    }
  }
}

export function settingNames(registry: FormRegistry): SettingNames {
  const deadlineNames = registry.deadlines.map((deadline) => deadline.name);
  const quotas = new Set<string>();
  for (const definition of registry.definitions) quotaKeywords(registry.filesFor(definition.id, '').schema, quotas);
  for (const name of MEMBER_QUOTAS) quotas.add(name);
  return {
    modules: catalogue.modules.filter((module) => !ORGANISER_MODULES.includes(module)),
    flags: participationFlags(registry.definitions),
    flagGroups: flagGroups(registry.definitions),
    deadlineNames,
    quotaNames: [...quotas],
    settings: eventSettingNames(registry.definitions),
  };
}
