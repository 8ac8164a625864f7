import type { FromSchema } from 'json-schema-to-ts';

// H3: a password change as the account page sends it. This schema is the only description of it:
// the server validates it, the password rules (password-policy.ts) and the page read its type.

export const passwordChangeSchema = {
  type: 'object',
  // Missing fields default to empty, so they get the form's own messages (old password required…).
  properties: {
    oldPassword: { type: 'string', maxLength: 256, default: '' },
    newPassword: { type: 'string', maxLength: 256, default: '' },
    confirmPassword: { type: 'string', maxLength: 256, default: '' },
  },
  additionalProperties: false,
} as const;

/** A change as written: a field left out counts as empty. */
export type PasswordChange = FromSchema<typeof passwordChangeSchema, { keepDefaultedPropertiesOptional: true }>;
