// Business constants and limits of spec §9 (K3), in one place for the browser and the server.

export const API_BASE = '/oga';
export const STORAGE_PREFIX = 'oem_';
export const STORAGE_KEYS = {
  token: `${STORAGE_PREFIX}token`,
  language: `${STORAGE_PREFIX}language`,
  lastActivity: `${STORAGE_PREFIX}last_activity`,
  lastRequest: `${STORAGE_PREFIX}last_request`,
  logoutReason: `${STORAGE_PREFIX}logout_reason`,
  /** The last user info and account info the server gave for the current token (offline start). */
  sessionCopy: `${STORAGE_PREFIX}session_copy`,
} as const;

export const TOAST_DURATION_MS = 5000;
export const LOGOUT_REDIRECT_DELAY_MS = 1000;
export const SCROLL_TO_TOP_MS = 800;

export const DUPLICATE_SUBMIT_WINDOW_MS = 1000;
export const DUPLICATE_SUBMIT_SIZE_CAP_BYTES = 5 * 1024 * 1024;

export const PAGINATION = {
  defaultPage: 1,
  defaultLimit: 20,
  pageSizes: [10, 20, 30, 50] as const,
  layout: ['total', 'prev', 'pager', 'next', 'jumper'] as const,
  pagerCountNarrow: 5,
  pagerCountWide: 7,
  narrowBelowPx: 992,
};

export const CUSTOM_TAGS_MAX = 3;
export const CUSTOM_TAG_CHOICES_MAX = 10;
export const CUSTOM_TAG_NAME_MAX_LENGTH = 50;
export const CUSTOM_TAG_CHOICE_MAX_LENGTH = 100;
export const IMAGE_MAX_BYTES = 2 * 1024 * 1024;
export const DOCUMENT_MAX_BYTES = 10 * 1024 * 1024;
/** The largest spreadsheet that fills a form's list (5,000 rows of XLSX take about 300 kB). */
export const SHEET_MAX_BYTES = 5 * 1024 * 1024;
export const SHEET_MAX_ROWS = 10_000;

export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 64;

/** Defaults of the server's session rules; the server's configuration may change them. */
export const SESSION_DEFAULTS = {
  idleSeconds: 30 * 60,
  absoluteSeconds: 12 * 60 * 60,
  warningSeconds: 2 * 60,
} as const;

export const SUPPORT_EMAIL = 'support@exhibitor-portal.example';

/** Below this width (px) the left menu is a drawer over the page, closed until asked for. */
export const DRAWER_BELOW_PX = 992;
