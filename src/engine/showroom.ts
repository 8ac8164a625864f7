// CT5: an exhibitor's digital showroom, built from its submitted forms as forms.yaml declares
// (`showroom:` — which form and which JSON pointers hold the company and the products), so no
// code names a form or a field.

import type { FromSchema } from 'json-schema-to-ts';
import type { SHOWROOM_SCHEMA } from './forms/form-list-schema';
import type { Showroom, ShowroomFile } from './schemas/showroom';

/** Where the showroom takes its company and products from, as forms.yaml declares it (`showroom:`). */
export type ShowroomDeclaration = FromSchema<typeof SHOWROOM_SCHEMA>;

export const SHOWROOM_COMPANY_FIELDS = ['name', 'description', 'logo', 'website', 'video', 'address'] as const;
export const SHOWROOM_PRODUCT_FIELDS = ['name', 'brand', 'description', 'category', 'image', 'video', 'newLaunch'] as const;
export type ShowroomCompanyField = (typeof SHOWROOM_COMPANY_FIELDS)[number];
export type ShowroomProductField = (typeof SHOWROOM_PRODUCT_FIELDS)[number];

/** RFC 6901 JSON pointer into data; undefined where nothing is. */
export function pointer(data: unknown, path: string): unknown {
  if (path === '' || path === '/') return data;
  let node: unknown = data;
  for (const raw of path.replace(/^\//, '').split('/')) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

const text = (value: unknown) => (typeof value === 'string' ? value.trim() : '');
function file(value: unknown): ShowroomFile | null {
  if (!value || typeof value !== 'object') return null;
  const ref = value as Record<string, unknown>;
  return typeof ref.id === 'string' && ref.id ? { id: ref.id, name: text(ref.name), type: text(ref.type) } : null;
}

/** The showroom from the submitted data of each form (form id → data). */
export function buildShowroom(declaration: ShowroomDeclaration, submitted: Record<string, unknown>): Showroom {
  const companyData = submitted[declaration.company.form];
  const field = (name: ShowroomCompanyField) => {
    const path = declaration.company.fields[name];
    return path ? pointer(companyData, path) : undefined;
  };
  const products: Showroom['products'] = [];
  if (declaration.products) {
    const list = pointer(submitted[declaration.products.form], declaration.products.list);
    const fields = declaration.products.fields;
    const of = (item: unknown, name: ShowroomProductField) => (fields[name] ? pointer(item, fields[name]!) : undefined);
    for (const item of Array.isArray(list) ? list : []) {
      const name = text(of(item, 'name'));
      if (!name) continue;
      products.push({
        name,
        brand: text(of(item, 'brand')),
        description: text(of(item, 'description')),
        category: text(of(item, 'category')),
        video: text(of(item, 'video')),
        newLaunch: of(item, 'newLaunch') === true,
        image: file(of(item, 'image')),
      });
    }
  }
  return {
    company: {
      name: text(field('name')),
      description: text(field('description')),
      website: text(field('website')),
      video: text(field('video')),
      address: text(field('address')),
      logo: file(field('logo')),
    },
    products,
  };
}

/** Every file the showroom shows (the only uploads its public page may serve). */
export function showroomFiles(showroom: Showroom): string[] {
  return [showroom.company.logo, ...showroom.products.map((product) => product.image)].filter((f): f is ShowroomFile => f !== null).map((f) => f.id);
}

/** Problems of a declaration against the forms it names (checked at start and by npm run check). */
export function showroomProblems(declaration: unknown, formIds: string[]): string[] {
  const problems: string[] = [];
  const where = 'schemas/forms/forms.yaml showroom';
  if (declaration === undefined) return problems;
  if (!declaration || typeof declaration !== 'object') return [`${where}: must be a mapping`];
  // biome-ignore lint/suspicious/noExplicitAny: an unchecked forms.yaml value, checked field by field below
  const d = declaration as Record<string, any>;
  for (const part of ['company', 'products'] as const) {
    const section = d[part];
    if (section === undefined && part === 'products') continue;
    if (!section || typeof section.form !== 'string' || !formIds.includes(section.form)) problems.push(`${where}.${part}.form: must name a form of forms.yaml`);
    const allowed: readonly string[] = part === 'company' ? SHOWROOM_COMPANY_FIELDS : SHOWROOM_PRODUCT_FIELDS;
    for (const [name, path] of Object.entries(section?.fields ?? {})) {
      if (!allowed.includes(name)) problems.push(`${where}.${part}.fields.${name}: unknown (known: ${allowed.join(', ')})`);
      if (typeof path !== 'string' || !path.startsWith('/')) problems.push(`${where}.${part}.fields.${name}: must be a JSON pointer such as /company/name`);
    }
    if (part === 'products' && (typeof section?.list !== 'string' || !section.list.startsWith('/'))) problems.push(`${where}.products.list: must be a JSON pointer to the list`);
  }
  return problems;
}
