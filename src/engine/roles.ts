// Spec §6 roles. An exhibitor holds every module of its participation; the people it grants
// access to hold only the part of those modules their role needs.

export const ROLES = ['exhibitor', 'team_user', 'contractor', 'organiser'] as const;

/** An organiser works for the event, not an exhibitor: these are its modules (O1). */
export const ORGANISER_MODULES: readonly string[] = ['Organiser Console', 'Organiser Approvals'];
export type Role = (typeof ROLES)[number];

/** Modules a granted role may keep from its exhibitor's participation; absent = all of them. */
const ROLE_MODULE_LIMITS: Partial<Record<Role, readonly string[]>> = {
  // LD1/LD5: a team user scans and qualifies leads.
  team_user: ['Leadgrab', 'Leadgrab Dashboard'],
  // P1: a contractor fills the contractor forms only.
  contractor: ['Forms'],
};

export function modulesForRole(role: Role, participationModules: readonly string[]): string[] {
  const limit = ROLE_MODULE_LIMITS[role];
  return limit ? participationModules.filter((module) => limit.includes(module)) : [...participationModules];
}
