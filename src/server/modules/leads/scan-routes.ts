import type { ApiApp } from '../../lib/api-app';
import { API_BASE } from '../../../engine/constants';
import { SCAN_BATCH_MAX } from '../../../engine/leads';
import { AppError } from '../../lib/app-error';
import { envelope } from '../../lib/schemas';
import { eventOf, requireAuth } from '../../plugins/auth';
import { ok } from '../../plugins/errors';
import type { AuthContext } from '../../plugins/sessions';
import { scanIntake } from './scans';
import { scanBatchAnswer, scanBatchBody } from './schemas';
import { scanSchema, type ScanInput } from '../../../engine/schemas/scan';
import { ROLES, TAGS } from './shared';

/** A scan stored as a new lead, as the examples of both scan routes show it. */
const createdExample = {
  clientScanId: '7f1c2a9e-4b1d-4c1e-9a52-0c8e1b7d3f10',
  status: 'created',
  leadId: 1201,
  badgeKnown: true,
  visitorName: 'Wei Ming Tan',
  company: 'Golden Harvest Foods Sdn. Bhd.',
} as const;

// LD1: scans from the scanning app, one at a time or in batches (resends never duplicate).
export default async function scanRoutes(app: ApiApp) {
  const base = `${API_BASE}/leads`;

  const scannerOf = (auth: AuthContext) => {
    if (!auth.participation) throw new AppError('notFound');
    return {
      userId: auth.user.id,
      role: auth.user.role,
      participationId: auth.participation.id,
      eventId: eventOf(auth).id,
      offsetMinutes: eventOf(auth).utc_offset_minutes,
      leadQuota: auth.user.lead_quota,
    };
  };

  // ---- LD1: scans -----------------------------------------------------------------------------

  const scanDescription = `For the scanning app. Log in first with \`POST /oga/auth/login\` \`{ "account": "…", "password": "…" }\` (an exhibitor or a team user; module Leadgrab), then get a long-lived device token with \`POST /oga/leads/devices\` \`{ "name": "Booth iPad 1" }\` and send \`Authorization: Bearer <token>\` with every scan request: the app keeps the token, never the password (the exhibitor sees and revokes devices on its Devices page).

**Resend semantics.** Every scan carries the app's own \`clientScanId\`, made once when the badge is read. Sending the same id again (a retry after a timeout, an offline queue synced twice) never makes a second lead: the answer says \`duplicate\` with \`reason: "resend"\` and the stored lead's id. So the app can resend anything it is not sure about, and drops a scan from its queue once the answer says \`created\` or \`duplicate\`.

**One lead per visitor.** A badge that already is a lead of the exhibitor (scanned before by anyone of it: the exhibitor or any team user) makes no second lead: the scan answers \`duplicate\` with \`reason: "alreadyScanned"\` and the stored lead's id, and is recorded on that lead (scan count, last seen, who; see \`scans\` on GET /oga/leads/{id}). Totals, lists, exports and the dashboard count the visitor once; a team user's quota counts only the leads it made.

**Unknown badges.** A code that matches no visitor of the event is kept (\`badgeKnown: false\`); the exhibitor completes the visitor's name and company when qualifying it.

**Quota.** A team user may have a lead quota. New scans beyond it are answered one by one with status \`quotaNotEnough\` and not stored; the scans of the same batch that fit are stored (a batch is accepted partially, in the order sent; resends never count). When a request stores nothing because the quota is used up, the envelope itself is code 601 with error \`quotaNotEnough\` ("Quota is not enough!") and the same per-scan results in \`data\`.

**Errors.** A deactivated user's session is refused (code 401): log in again, which then says the account is deactivated. Body code 403: the account has no Leadgrab module. A malformed request (missing field, bad id, more than ${SCAN_BATCH_MAX} scans) is code 601 \`badRequest\` with HTTP 400 and stores nothing.`;

  // On the embedded database, batches arriving together are stored in one statement.
  const intake = scanIntake(app.db, { oneStatementAtATime: app.dbEngine === 'pglite' });
  const scanHandler = async (auth: AuthContext, scans: ScanInput[]) => {
    const outcome = await intake.ingest(scannerOf(auth), scans);
    // LD: the exhibitor's webhooks hear of new leads, and of repeat scans of its leads.
    const ids = (status: string) =>
      outcome.results
        .filter((result) => result.status === status && result.leadId !== null && (status === 'created' || result.reason === 'alreadyScanned'))
        .map((result) => result.leadId!);
    await app.webhooks.emit({ type: 'lead.created', leadIds: ids('created') });
    await app.webhooks.emit({ type: 'lead.updated', leadIds: ids('duplicate') });
    if (outcome.created === 0 && outcome.refusedForQuota > 0) throw new AppError('quotaNotEnough', outcome);
    return outcome;
  };

  app.post(
    `${base}/scans`,
    {
      config: { screen: 'leads', roles: [...ROLES], device: true },
      schema: {
        tags: TAGS,
        summary: `LD1: send a batch of scans (1-${SCAN_BATCH_MAX}), e.g. the app's offline queue`,
        description: `${scanDescription}\n\nThe answer has one result per scan, in the order sent. Batches of about 100 are a good size.`,
        body: scanBatchBody,
        response: {
          200: {
            ...envelope(scanBatchAnswer),
            examples: [
              {
                code: 200,
                msg: 'ok',
                data: {
                  results: [
                    createdExample,
                    {
                      clientScanId: '0b6f1d33-8e0a-4a8f-bf0e-5d2c7a9e6a21',
                      status: 'duplicate',
                      reason: 'alreadyScanned',
                      leadId: 1187,
                      badgeKnown: true,
                      visitorName: 'Siti Hassan',
                      company: 'Lotus Trading PT',
                    },
                    { clientScanId: 'c3d9e1a0-2f4b-4e7c-8a11-9b0d5e6f7a88', status: 'created', leadId: 1202, badgeKnown: false, visitorName: '', company: '' },
                  ],
                  created: 2,
                  duplicates: 1,
                  refusedForQuota: 0,
                  invalid: 0,
                  quota: 500,
                  remaining: 312,
                },
              },
            ],
          },
        },
      },
    },
    async (request) => ok(await scanHandler(requireAuth(request), request.body.scans)),
  );

  app.post(
    `${base}/scan`,
    {
      config: { screen: 'leads', roles: [...ROLES], device: true },
      schema: {
        tags: TAGS,
        summary: 'LD1: send one scan as soon as the badge is read',
        description: `${scanDescription}\n\nThe answer has the same shape as a batch's (\`results\` holds the one scan's result), so the app reads both the same way. A scan refused for the quota answers code 601 \`quotaNotEnough\`.`,
        body: scanSchema,
        response: {
          200: {
            ...envelope(scanBatchAnswer),
            examples: [
              {
                code: 200,
                msg: 'ok',
                data: {
                  results: [createdExample],
                  created: 1,
                  duplicates: 0,
                  refusedForQuota: 0,
                  invalid: 0,
                  quota: 500,
                  remaining: 311,
                },
              },
              {
                code: 200,
                msg: 'ok',
                data: {
                  results: [
                    {
                      clientScanId: '5d0e7c21-93aa-4f6b-b1c4-2e8f0a6d9b37',
                      status: 'duplicate',
                      reason: 'alreadyScanned',
                      leadId: 1201,
                      badgeKnown: true,
                      visitorName: 'Wei Ming Tan',
                      company: 'Golden Harvest Foods Sdn. Bhd.',
                    },
                  ],
                  created: 0,
                  duplicates: 1,
                  refusedForQuota: 0,
                  invalid: 0,
                  quota: 500,
                  remaining: 311,
                },
              },
            ],
          },
        },
      },
    },
    async (request) => ok(await scanHandler(requireAuth(request), [request.body])),
  );
}
