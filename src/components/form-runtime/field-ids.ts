/**
 * F9: the id rjsf gives the input of a field named by a validation error's property
 * (".company.companyName" or ".badges.0.email" → "root_company_companyName", "root_badges_0_email").
 */
export function fieldIdOf(property: string | undefined): string {
  return ['root', ...pathOf(property)].join('_');
}

/** The steps of an rjsf error's property (`.contractor.company`, `.badges.0['e-mail']`). */
function pathOf(property: string | undefined): string[] {
  return (property ?? '')
    .replace(/\['([^']*)'\]/g, '.$1')
    .replace(/\[(\d+)\]/g, '.$1')
    .split('.')
    .filter(Boolean);
}

/** The top-level property an rjsf error is about ('' for the form as a whole). */
export function topFieldOf(property: string | undefined): string {
  return pathOf(property)[0] ?? '';
}
