import type { FastifyInstance } from 'fastify';
import { API_BASE } from '../../../engine/constants';
import { contentDisposition } from '../../lib/content-disposition';
import { AppError } from '../../lib/app-error';
import { envelope } from '../../lib/schemas';
import { eventOf, requireAuth } from '../../plugins/auth';
import { ok } from '../../plugins/errors';
import type { AuthContext } from '../auth/sessions';
import type { FormRegistry } from '../forms/form-set';
import { letterReference, renderInvitationLetter, type VisaApplicant } from './letter';

// F7: the visa invitation letters of a participation, one per applicant of its submitted S06
// form, made on request from the submitted data (nothing is stored). Only the participation's
// own users see them: the data comes from their own form entry, so another exhibitor simply
// finds none.

const FORM_ID = 's06';

const letterSchema = {
  type: 'object',
  properties: {
    index: { type: 'integer', description: 'Position of the applicant in the form (0-based); the PDF is /oga/visa/letters/<index>.pdf' },
    name: { type: 'string', description: 'Full name as in passport' },
    passportNumber: { type: 'string' },
    reference: { type: 'string', description: 'The reference number printed on the letter' },
    fileName: { type: 'string', description: 'The name the PDF is downloaded under' },
  },
  required: ['index', 'name', 'passportNumber', 'reference', 'fileName'],
} as const;

const text = (value: unknown): string => (typeof value === 'string' ? value : value === undefined || value === null ? '' : String(value));

/** An applicant of the stored form data; the data was validated on submit, this only guards the types. */
function applicantOf(raw: unknown): VisaApplicant {
  const item = (typeof raw === 'object' && raw !== null ? raw : {}) as Record<string, unknown>;
  const duration = Number(item.durationOfStay);
  return {
    fullName: text(item.fullName),
    chineseName: text(item.chineseName) || undefined,
    gender: text(item.gender) || undefined,
    nationality: text(item.nationality),
    dateOfBirth: text(item.dateOfBirth),
    placeOfBirth: text(item.placeOfBirth),
    passportNumber: text(item.passportNumber),
    passportPlaceOfIssue: text(item.passportPlaceOfIssue) || undefined,
    passportDateOfIssue: text(item.passportDateOfIssue),
    passportDateOfExpiry: text(item.passportDateOfExpiry),
    dateOfArrival: text(item.dateOfArrival),
    dateOfDeparture: text(item.dateOfDeparture),
    durationOfStay: Number.isFinite(duration) ? duration : 0,
    embassyCountry: text(item.embassyCountry),
    embassyCity: text(item.embassyCity),
  };
}

/** "visa-invitation-Tan-Wei-Ming.pdf": the name without characters file systems refuse. */
export function letterFileName(name: string, index: number): string {
  const safe = name
    .normalize('NFC')
    .replace(/[\p{Cc}\p{Cf}\\/:*?"<>|]/gu, '')
    .trim()
    .replace(/[\s.]+/gu, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80);
  return `visa-invitation-${safe || index + 1}.pdf`;
}

export default async function visaRoutes(app: FastifyInstance, { registry }: { registry: FormRegistry }) {
  const base = `${API_BASE}/visa/letters`;

  /** Whether this user sees the S06 form at all (contractors only when the form says so). */
  function seesForm(auth: AuthContext): boolean {
    const definition = registry.find(FORM_ID);
    if (!definition) return false;
    if (auth.user.role === 'contractor') return definition.audience === 'both';
    return auth.user.role === 'exhibitor' || auth.user.role === 'team_user';
  }

  /** The applicants of the participation's submitted S06; none when it is not submitted. */
  async function applicantsOf(auth: AuthContext): Promise<{ applicants: VisaApplicant[]; issuedAt: Date }> {
    const none = { applicants: [], issuedAt: new Date() };
    if (!auth.participation || !seesForm(auth)) return none;
    const entry = await app.db
      .selectFrom('form_entries')
      .select(['submitted_data', 'status', 'submitted_at', 'updated_at'])
      .where('participation_id', '=', auth.participation.id)
      .where('form_id', '=', FORM_ID)
      .executeTakeFirst();
    if (!entry || entry.status !== 'submitted') return none;
    // The letters follow the current submission, not the working copy being edited (F9).
    const data = (typeof entry.submitted_data === 'string' ? JSON.parse(entry.submitted_data) : entry.submitted_data) as { applicants?: unknown } | null;
    const applicants = Array.isArray(data?.applicants) ? data.applicants.map(applicantOf) : [];
    // The letter is dated the day the form was submitted, so every copy of it is the same.
    return { applicants, issuedAt: new Date(entry.submitted_at ?? entry.updated_at) };
  }

  app.get(
    base,
    {
      config: { screen: 'visaInvitationDetail' },
      schema: {
        tags: ['visa'],
        summary: "F7: the applicants of this participation's submitted S06 form, one invitation letter each (empty until S06 is submitted)",
        response: { 200: envelope({ type: 'array', items: letterSchema }) },
      },
    },
    async (request) => {
      const auth = requireAuth(request);
      const { applicants } = await applicantsOf(auth);
      return ok(
        applicants.map((applicant, index) => ({
          index,
          name: applicant.fullName,
          passportNumber: applicant.passportNumber,
          reference: letterReference(eventOf(auth).code, auth.participation!.id, index),
          fileName: letterFileName(applicant.fullName, index),
        })),
      );
    },
  );

  app.get<{ Params: { index: string }; Querystring: { download?: string } }>(
    `${base}/:index.pdf`,
    {
      config: { screen: 'visaInvitationDetail' },
      schema: {
        tags: ['visa'],
        summary: 'F7: the visa invitation letter of one applicant, as a PDF (code 404 when S06 is not submitted or there is no such applicant)',
        params: { type: 'object', required: ['index'], properties: { index: { type: 'string', maxLength: 40 } } },
        querystring: {
          type: 'object',
          properties: { download: { type: 'string', maxLength: 5, description: '1 (or true) to download it as an attachment; otherwise it is shown inline' } },
        },
        response: {
          200: {
            description: 'The letter (A4)',
            content: { 'application/pdf': { schema: { type: 'string', format: 'binary' } } },
          },
        },
      },
    },
    async (request, reply) => {
      const auth = requireAuth(request);
      // Malformed, out of range and not submitted answer the same.
      if (!/^\d{1,6}$/.test(request.params.index)) throw new AppError('notFound');
      const index = Number(request.params.index);
      const { applicants, issuedAt } = await applicantsOf(auth);
      const applicant = applicants[index];
      if (!applicant || !auth.participation || !auth.exhibitor) throw new AppError('notFound');
      const bytes = await renderInvitationLetter({
        event: eventOf(auth),
        exhibitor: auth.exhibitor,
        boothNum: auth.participation.booth_num,
        applicant,
        reference: letterReference(eventOf(auth).code, auth.participation.id, index),
        issuedAt,
      });
      const download = request.query.download === '1' || request.query.download === 'true';
      return reply
        .header('Content-Type', 'application/pdf')
        .header('Content-Length', bytes.length)
        .header('Content-Disposition', contentDisposition(download ? 'attachment' : 'inline', letterFileName(applicant.fullName, index)))
        .send(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
    },
  );
}
