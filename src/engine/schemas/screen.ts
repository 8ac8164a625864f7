import type { FromSchema } from 'json-schema-to-ts';
import { ROLES } from '../roles';

// A screen of screens.yaml, as the catalogue (catalogue.ts) reads it and the catalogue route serves
// it. This schema is the only description of it: the route documents its answer with it, the
// router, the menu and the permission checks read the type derived from it.

export const LAYOUTS = ['public', 'main', 'account'] as const;
export const ICON_NAMES = ['home', 'dashboard', 'event', 'forms', 'manuals', 'leads', 'support', 'invite'] as const;

export const screenSchema = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    path: { type: 'string' },
    layout: { type: 'string', enum: LAYOUTS },
    title: { type: 'string' },
    menuLabel: { type: 'string' },
    parent: { type: 'string' },
    hidden: { type: 'boolean' },
    modules: { type: 'array', items: { type: 'string' } },
    roles: { type: 'array', items: { type: 'string', enum: ROLES }, description: "Only these roles may open it (e.g. the exhibitor's own administration); absent = any role" },
    icon: { type: 'string', enum: ICON_NAMES },
    order: { type: 'number' },
    page: { type: 'string' },
    form: { type: 'string' },
    documentsOf: { type: 'string', description: 'F7: the page lists the documents this form yields (forms.yaml `documents:`); its access guards them' },
    available: { type: 'boolean' },
  },
  required: ['id', 'path', 'layout', 'title'],
  additionalProperties: false,
} as const;

export type Screen = FromSchema<typeof screenSchema>;
export type Layout = Screen['layout'];
export type IconName = NonNullable<Screen['icon']>;
