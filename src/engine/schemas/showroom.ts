import type { FromSchema } from 'json-schema-to-ts';

// CT5: an exhibitor's digital showroom as the engine builds it (showroom.ts) and the showroom
// routes answer it (preview and public page). This schema is the only description of it.

/** A file the showroom shows (an upload of the company's or a product's form); null where none. */
export const showroomFileSchema = {
  type: ['object', 'null'],
  properties: { id: { type: 'string' }, name: { type: 'string' }, type: { type: 'string' } },
  required: ['id', 'name', 'type'],
  additionalProperties: false,
} as const;

export const showroomSchema = {
  type: 'object',
  properties: {
    company: {
      type: 'object',
      properties: {
        name: { type: 'string' },
        description: { type: 'string' },
        website: { type: 'string' },
        video: { type: 'string' },
        address: { type: 'string' },
        logo: showroomFileSchema,
      },
      required: ['name', 'description', 'website', 'video', 'address', 'logo'],
      additionalProperties: false,
    },
    products: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          name: { type: 'string' },
          brand: { type: 'string' },
          description: { type: 'string' },
          category: { type: 'string' },
          video: { type: 'string' },
          newLaunch: { type: 'boolean' },
          image: showroomFileSchema,
        },
        required: ['name', 'brand', 'description', 'category', 'video', 'newLaunch', 'image'],
        additionalProperties: false,
      },
    },
  },
  required: ['company', 'products'],
  additionalProperties: false,
} as const;

export type Showroom = FromSchema<typeof showroomSchema>;
export type ShowroomFile = NonNullable<FromSchema<typeof showroomFileSchema>>;
