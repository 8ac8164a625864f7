// Every coded outcome the portal can report, in one table (rjsf/documenso habit). The server
// answers `{ code, msg, data, error }` where `error` is the id below and `msg` its message in
// the caller's language; the browser maps ids and body codes to the same locale keys.

/** Body codes of spec §8. */
export const BODY_CODE = {
  ok: 200,
  invalidSession: 401,
  noPermission: 403,
  notFound: 404,
  serverError: 500,
  loginRequired: 501,
  businessWarning: 601,
} as const;

export interface ErrorDefinition {
  /** Body code of spec §8. */
  code: number;
  /** Locale key of the message shown to the user. */
  message: string;
  /** HTTP status; 200 for business outcomes. */
  http?: number;
}

export const ERRORS = {
  invalidSession: { code: 401, message: 'errors.invalidSession' },
  sessionInactive: { code: 401, message: 'errors.sessionInactive' },
  noPermission: { code: 403, message: 'errors.noPermission' },
  notFound: { code: 404, message: 'errors.notFound' },
  internal: { code: 500, message: 'errors.internal', http: 500 },
  badRequest: { code: 601, message: 'errors.badRequest', http: 400 },
  payloadTooLarge: { code: 601, message: 'errors.payloadTooLarge', http: 413 },
  formDataTooLarge: { code: 601, message: 'errors.formDataTooLarge', http: 413 },
  badCredentials: { code: 601, message: 'errors.badCredentials' },
  tooManyAttempts: { code: 601, message: 'errors.tooManyAttempts', http: 429 },
  accountDisabled: { code: 601, message: 'errors.accountDisabled' },
  oldPasswordRequired: { code: 601, message: 'errors.oldPasswordRequired' },
  oldPasswordWrong: { code: 601, message: 'errors.oldPasswordWrong' },
  passwordMismatch: { code: 601, message: 'errors.passwordMismatch' },
  passwordTooShort: { code: 601, message: 'errors.passwordTooShort' },
  passwordTooLong: { code: 601, message: 'errors.passwordTooLong' },
  passwordSameAsOld: { code: 601, message: 'errors.passwordSameAsOld' },
  emailInvalid: { code: 601, message: 'errors.emailInvalid' },
  resetLinkInvalid: { code: 601, message: 'errors.resetLinkInvalid' },
  required: { code: 601, message: 'errors.required' },
  staleVersion: { code: 601, message: 'errors.staleVersion' },
  formVersionStale: { code: 601, message: 'errors.formVersionStale', http: 409 },
  formVersionProblems: { code: 601, message: 'errors.formVersionProblems', http: 422 },
  formDraftMissing: { code: 601, message: 'errors.formDraftMissing', http: 409 },
  formPatchInvalid: { code: 601, message: 'errors.formPatchInvalid', http: 400 },
  formPatchTooLarge: { code: 601, message: 'errors.formPatchTooLarge', http: 413 },
  validationFailed: { code: 601, message: 'errors.validationFailed' },
  submitOnce: { code: 601, message: 'errors.submitOnce' },
  deadlinePassed: { code: 601, message: 'errors.deadlinePassed' },
  submitFormsFirst: { code: 601, message: 'errors.submitFormsFirst' },
  prerequisiteClosed: { code: 601, message: 'errors.prerequisiteClosed' },
  formNotOpen: { code: 601, message: 'errors.formNotOpen' },
  nothingToInherit: { code: 601, message: 'errors.nothingToInherit' },
  commentRequired: { code: 601, message: 'errors.commentRequired' },
  reopenUntilRequired: { code: 601, message: 'errors.reopenUntilRequired' },
  reopenUntilPast: { code: 601, message: 'errors.reopenUntilPast' },
  reopenUntilAfterShow: { code: 601, message: 'errors.reopenUntilAfterShow' },
  reopenNotNeeded: { code: 601, message: 'errors.reopenNotNeeded' },
  fileRejected: { code: 601, message: 'errors.fileRejected' },
  /** The participation's uploads would pass UPLOAD_QUOTA_MB. */
  uploadQuotaExceeded: { code: 601, message: 'errors.uploadQuotaExceeded', http: 413 },
  /** The file store (disk or database) is full; nothing was kept. */
  storageFull: { code: 601, message: 'errors.storageFull', http: 507 },
  /** A multipart body without its boundary or cut off mid-part: nothing was read or kept. */
  multipartBroken: { code: 601, message: 'errors.multipartBroken', http: 400 },
  /** The event's leads were erased at the end of their retention period. */
  leadsAlreadyErased: { code: 601, message: 'errors.leadsAlreadyErased' },
  /** Spec §5/§8: "Quota is not enough!" (team users, contractor logins, a team user's scans). */
  quotaNotEnough: { code: 601, message: 'errors.quotaNotEnough' },
  // ---- members: team users and contractors (LD5, P1) ----
  /** LD5/P1: the account ID (user name) is already used by another account of the portal. */
  memberLoginTaken: { code: 601, message: 'errors.memberLoginTaken' },
  /** LD5/P1: an account ID must be 3–64 letters, digits or . _ - @, starting with a letter or digit. */
  memberLoginInvalid: { code: 601, message: 'errors.memberLoginInvalid' },
  /** LD5: a lead quota is a whole number from 0 (empty = no limit). */
  memberLeadQuotaInvalid: { code: 601, message: 'errors.memberLeadQuotaInvalid' },
  /** P1: a contractor changed a part of a form that is the exhibitor's (nothing stored). */
  contractorFieldForbidden: { code: 403, message: 'errors.contractorFieldForbidden' },
  // ---- leads: scanning, list, qualification, exports (LD1-LD4) ----
  /** LD1: a scanning device's token opens only the scanning API (403). */
  deviceTokenScope: { code: 403, message: 'errors.deviceTokenScope' },
  /** LD2: an API key opens only the routes of its scopes (the leads API); nothing else (403). */
  apiKeyScope: { code: 403, message: 'errors.apiKeyScope' },
  /** LD2: `updatedSince` is not an ISO 8601 instant with its offset. */
  updatedSinceInvalid: { code: 601, message: 'errors.updatedSinceInvalid', http: 400 },
  /** LD2: a sync cursor that no answer gave (changed or cut). */
  leadCursorInvalid: { code: 601, message: 'errors.leadCursorInvalid', http: 400 },
  /** LD2: more API keys than an exhibitor may hold ({{limit}}). */
  apiKeysTooMany: { code: 601, message: 'errors.apiKeysTooMany' },
  /** LD3: a qualification breaks a rule; `data.fields` maps fields to message keys, msg is the first. */
  // ---- analytics: dashboard, custom tags, invitations (LA1-LA5, LD6) ----
  /** V5: "The tag already exists, please do not add it again." */
  tagExists: { code: 601, message: 'errors.tagExists' },
  /** V5: "Tag choices cannot be duplicated." */
  tagChoicesDuplicated: { code: 601, message: 'errors.tagChoicesDuplicated' },
  /** V5: more than CUSTOM_TAGS_MAX tags ({{limit}}). */
  customTagsTooMany: { code: 601, message: 'errors.customTagsTooMany' },
  /** V5: more than CUSTOM_TAG_CHOICES_MAX choices in a tag ({{limit}}). */
  tagChoicesTooMany: { code: 601, message: 'errors.tagChoicesTooMany' },
  /** LA5: more recipients than one send takes ({{limit}}). */
  invitationsTooMany: { code: 601, message: 'errors.invitationsTooMany' },
  /** LA5: the participation's invitations of the last 24 hours would pass the daily cap ({{limit}}). */
  invitationsDailyLimit: { code: 601, message: 'errors.invitationsDailyLimit' },
  // ---- webhooks (LD) ----
  /** LD: an endpoint address that is not a web address. */
  webhookUrlInvalid: { code: 601, message: 'errors.webhookUrlInvalid' },
  /** LD: only https endpoints (plain http to localhost on a development server only). */
  webhookHttpsRequired: { code: 601, message: 'errors.webhookHttpsRequired' },
  /** LD: a user name or password in the endpoint address. */
  webhookUrlCredentials: { code: 601, message: 'errors.webhookUrlCredentials' },
  /** LD: an address on this machine or the internal network (server-side request forgery). */
  webhookAddressBlocked: { code: 601, message: 'errors.webhookAddressBlocked' },
  /** LD: an endpoint takes at least one event. */
  webhookEventsRequired: { code: 601, message: 'errors.webhookEventsRequired' },
  /** LD: an event this owner's endpoints cannot take (`data.event`). */
  webhookEventNotAllowed: { code: 601, message: 'errors.webhookEventNotAllowed' },
  /** LD: more endpoints than one owner may have ({{limit}}). */
  webhookEndpointsTooMany: { code: 601, message: 'errors.webhookEndpointsTooMany' },
  /** LD: the message is being sent right now. */
  webhookDeliveryBusy: { code: 601, message: 'errors.webhookDeliveryBusy' },
  // ---- odd input and sign-in links (S3) ----
  /** Text holding a NUL character, which no stored text may contain. */
  textNulCharacter: { code: 601, message: 'errors.textNulCharacter', http: 400 },
  /** JSON text with a lone UTF-16 surrogate (half of a character). */
  textInvalidUnicode: { code: 601, message: 'errors.textInvalidUnicode', http: 400 },
  /** A whole number beyond what an id or version holds (2,147,483,647). */
  numberTooLarge: { code: 601, message: 'errors.numberTooLarge', http: 400 },
  /** JSON nested deeper than any form needs ({{limit}} levels). */
  jsonTooDeep: { code: 601, message: 'errors.jsonTooDeep', http: 400 },
  /** A name or file name with control characters or text-direction overrides. */
  nameInvalidCharacters: { code: 601, message: 'errors.nameInvalidCharacters', http: 400 },
  /** S3: a one-time sign-in link that is unknown, expired or already used. */
  linkCodeInvalid: { code: 601, message: 'errors.linkCodeInvalid' },
  // ---- organiser console (O2) ----
  /** An organiser without an event yet reached for event data: it creates its first event. */
  noCurrentEvent: { code: 601, message: 'errors.noCurrentEvent' },
  /** Cloning an event: its form patches could not be copied into a new forms version (the forms changed meanwhile); the clone was taken back. */
  eventCloneFormsFailed: { code: 601, message: 'errors.eventCloneFormsFailed', http: 409 },
  /** The import file is empty or neither XLSX nor CSV. */
  importFileUnreadable: { code: 601, message: 'errors.importFileUnreadable' },
  /** More rows than one import takes ({{limit}}). */
  importTooManyRows: { code: 601, message: 'errors.importTooManyRows' },
  importConcurrentChange: { code: 601, message: 'errors.importConcurrentChange', http: 409 },
  /** A spreadsheet over the size a list import reads ({{limit}} MB). */
  importFileTooLarge: { code: 601, message: 'errors.importFileTooLarge' },
  // ---- content (CT1-CT5) ----
  /** A manual's deadline after the show ends. */
  contentDeadlineAfterShow: { code: 601, message: 'errors.contentDeadlineAfterShow' },
  /** The event has no support address to send the contact form to. */
  supportUnavailable: { code: 601, message: 'errors.supportUnavailable' },
} as const satisfies Record<string, ErrorDefinition>;

export type ErrorId = keyof typeof ERRORS;

export function isErrorId(value: unknown): value is ErrorId {
  return typeof value === 'string' && Object.hasOwn(ERRORS, value);
}

/** Messages the browser shows on its own (spec §8), by purpose. */
export const CLIENT_MESSAGES = {
  network: 'errors.network',
  backend: 'errors.backend',
  timeout: 'errors.timeout',
  resubmit: 'errors.resubmit',
  genericCode: 'errors.genericCode',
  preload: 'errors.preload',
  copyFailed: 'errors.copyFailed',
} as const;

/** Success messages of spec §8. */
export const SUCCESS_MESSAGES = {
  saved: 'success.saved',
  editsSaved: 'success.editsSaved',
  deleted: 'success.deleted',
  emailSent: 'success.emailSent',
  modified: 'success.modified',
  newUserAdded: 'success.newUserAdded',
  sent: 'success.sent',
  inheritedProduct: 'success.inheritedProduct',
  copySuccess: 'success.copySuccess',
  loggedOut: 'success.loggedOut',
  passwordChanged: 'success.passwordChanged',
  passwordReset: 'success.passwordReset',
} as const;

/** The default locale key for a body code the client receives without a message. */
export function defaultMessageForCode(code: number): string {
  switch (code) {
    case BODY_CODE.invalidSession:
      return ERRORS.invalidSession.message;
    case BODY_CODE.noPermission:
      return ERRORS.noPermission.message;
    case BODY_CODE.notFound:
      return ERRORS.notFound.message;
    default:
      return CLIENT_MESSAGES.genericCode;
  }
}
