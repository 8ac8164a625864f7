// LD2: what an exhibitor's API key may read. A key carries one or more scopes; a route that an
// API key may call names the one scope it needs (route config `apiKey`), every other route
// refuses API keys.

export const API_KEY_SCOPES = ['leads:read', 'exports:read'] as const;
export type ApiKeyScope = (typeof API_KEY_SCOPES)[number];

/** Every API key starts with this, so a bearer credential is told apart from a session token at once. */
export const API_KEY_PREFIX = 'ogak_';

/** The characters of a key shown in the list so the exhibitor recognises it (the prefix and a few more). */
export const API_KEY_SHOWN_CHARS = 12;

export const API_KEY_NAME_MAX = 60;

/** Keys one exhibitor may hold at once (revoked ones aside). */
export const API_KEYS_MAX = 20;
