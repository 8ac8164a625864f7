import { DOCUMENT_MAX_BYTES } from './constants';
import type { FilePurposeRule } from './forms/files';

// CT1: what an organiser may attach to a manual — checked by the organiser's page
// before sending and by the server on the bytes it received.

/** The upload purpose recorded for a manual's attachment (no form field ever holds one). */
export const MANUAL_ATTACHMENT_PURPOSE = 'manualAttachment';

export const MANUAL_ATTACHMENT_RULE: FilePurposeRule = { types: ['pdf', 'jpeg', 'png'], maxBytes: DOCUMENT_MAX_BYTES };

/** At most this many attachments per manual. */
export const MANUAL_ATTACHMENTS_MAX = 10;
