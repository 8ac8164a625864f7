import { containingPattern } from '../../lib/like-pattern';
import type { ApiApp } from '../../lib/api-app';
import type { FastifyRequest } from 'fastify';
import { sql, type Kysely, type RawBuilder } from 'kysely';
import { API_BASE } from '../../../engine/constants';
import { deadlineOfForm, formDeadlineKey, formStatus, type FormDefinition, type FormStatus } from '../../../engine/forms/definitions';
import { LANGUAGES, type Language } from '../../../engine/language';
import { searchKeyword } from '../../../engine/search';
import { fieldChanges } from '../../../engine/audit-changes';
import { exhibitorProblems } from '../../../engine/organiser-exhibitors';
import { exhibitorInputSchema, type ExhibitorInput } from '../../../engine/schemas/exhibitor';
import type { FieldProblems } from '../../../engine/organiser-events';
import type { Database, EventRow } from '../../db/schema';
import { AppError } from '../../lib/app-error';
import { translate } from '../../lib/messages';
import { currentOrganiserEvent, organisationOf, organiserParticipation } from '../../lib/organiser-scope';
import { pageOf, pageQuerySchema, pageSchema } from '../../lib/paging';
import { loadParticipationSettings } from '../../lib/participation-settings';
import { envelope } from '../../lib/schemas';
import { stringMap } from '../../../engine/schemas/json-schema';
import { settingNames } from '../../lib/setting-names';
import { createSetPasswordLink } from '../../lib/set-password-link';
import { requireAuth } from '../../plugins/auth';
import { ok } from '../../plugins/errors';
import { revokeUserSessions } from '../../plugins/sessions';
import { conflicts, createAccount, readAccount, updateAccount } from './accounts';
import { refreshExhibitorSearchTexts } from './search-texts';

// O2, spec §3: the organiser's exhibitors of its current event — list with search and
// filters (module, flag, form status) in the spec's pages, create, edit every account field,
// deactivate (their people's sessions end), activation e-mail and password reset. Another
// organisation's or event's exhibitor answers 404. Every change is audited (before/after).

const LIST = { screen: 'organiserExhibitors' } as const;
const EDIT = { screen: 'organiserExhibitorEdit' } as const;
export const EXHIBITOR_LINK_HOURS = 72;
const FORM_STATUSES: FormStatus[] = ['notStarted', 'draft', 'submitted', 'pendingApproval', 'approved', 'rejected', 'closed'];

const listItemSchema = {
  type: 'object',
  properties: {
    id: { type: 'integer', description: 'The participation id' },
    code: { type: 'string' },
    name: { type: 'string' },
    boothNum: { type: 'string' },
    account: { type: 'string' },
    email: { type: 'string' },
    modules: { type: 'array', items: { type: 'string' } },
    status: { type: 'string', enum: ['active', 'disabled'] },
    forms: { ...stringMap({ type: 'string', enum: FORM_STATUSES }), description: 'Form id → status (F1)' },
  },
  required: ['id', 'code', 'name', 'boothNum', 'account', 'email', 'modules', 'status', 'forms'],
  additionalProperties: false,
} as const;

const idParams = { type: 'object', properties: { id: { type: 'integer', minimum: 1 } }, required: ['id'] } as const;
const problemsDescription =
  'Refused with code 601 `validationFailed` when a rule fails (missing name, bad e-mail, a booth, code or account ID already used, a deadline after the show, a value starting with "="): `data.fields` maps each field to the locale key of its message.';

export function normaliseExhibitor(input: ExhibitorInput): ExhibitorInput {
  return {
    ...input,
    code: input.code.trim(),
    name: input.name.trim(),
    legalName: input.legalName.trim(),
    boothNum: input.boothNum.trim(),
    logoUrl: input.logoUrl.trim(),
    account: input.account.trim(),
    email: input.email.trim(),
    contactName: input.contactName.trim(),
    modules: [...new Set(input.modules)],
  };
}

export default async function organiserExhibitorRoutes(app: ApiApp) {
  const config = app.config;
  const registry = app.forms.registry;
  const base = `${API_BASE}/organiser/exhibitors`;
  // The names the set in use declares.
  const names = () => settingNames(registry);

  const refuse = (problems: FieldProblems) => {
    const first = Object.keys(problems)[0];
    if (first) throw new AppError('validationFailed', { fields: problems }, {}, problems[first]);
  };

  const record = (request: FastifyRequest, db: Kysely<Database>, action: string, event: EventRow, participationId: number, before: unknown, after: unknown) =>
    app.audit.record(
      { action, eventId: event.id, participationId, organisationId: event.organisation_id, subjectType: 'participation', subjectId: participationId, before, after },
      { request, db },
    );

  /** F1 status of each form for these participations. */
  const statusesOf = async (event: EventRow, participationIds: number[], now: Date) => {
    const [settings, entries] = await Promise.all([loadParticipationSettings(app.db, event.id, participationIds), app.formEntries.statusesOf(participationIds)]);
    const byKey = new Map(entries.map((entry) => [`${entry.participation_id}/${entry.form_id}`, entry]));
    return new Map(
      participationIds.map((id) => [
        id,
        Object.fromEntries(
          registry.definitions.map((definition) => [
            definition.id,
            formStatus(byKey.get(`${id}/${definition.id}`) ?? null, deadlineOfForm(settings.get(id)?.deadlines, definition), now),
          ]),
        ) as Record<string, FormStatus>,
      ]),
    );
  };

  /**
   * F1: the exhibitors whose form is in one status, as a condition of the list's query. The status
   * follows from the entry and the form's deadline: the event's for every exhibitor but the few
   * with a deadline of their own for the form, whose statuses are worked out here.
   */
  const formStatusFilter = async (event: EventRow, definition: FormDefinition, wanted: FormStatus, now: Date): Promise<RawBuilder<boolean>> => {
    const deadlineRows = await app.db
      .selectFrom('deadlines')
      .select(['participation_id', 'name', 'due_at'])
      .where('event_id', '=', event.id)
      .where('name', 'in', [formDeadlineKey(definition.id), definition.deadline])
      .execute();
    const eventDeadlines: Record<string, Date> = {};
    const ownDeadlines = new Map<number, Record<string, Date>>();
    for (const row of deadlineRows) {
      if (row.participation_id === null) eventDeadlines[row.name] = new Date(row.due_at);
      else ownDeadlines.set(row.participation_id, { ...ownDeadlines.get(row.participation_id), [row.name]: new Date(row.due_at) });
    }
    const eventDeadline = deadlineOfForm(eventDeadlines, definition);
    const withEventDeadline = app.formEntries.hasFormStatus(definition.id, wanted, eventDeadline !== null && eventDeadline.getTime() < now.getTime());
    const ownIds = [...ownDeadlines.keys()];
    if (ownIds.length === 0) return withEventDeadline;
    const entryOf = new Map((await app.formEntries.statusesOf(ownIds)).filter((entry) => entry.form_id === definition.id).map((entry) => [entry.participation_id, entry]));
    const matching = ownIds.filter((id) => formStatus(entryOf.get(id) ?? null, deadlineOfForm({ ...eventDeadlines, ...ownDeadlines.get(id) }, definition), now) === wanted);
    return sql<boolean>`((participations.id <> all(${sql.val(ownIds)}::int[]) and ${withEventDeadline}) or participations.id = any(${sql.val(matching)}::int[]))`;
  };

  app.get(
    base,
    {
      config: LIST,
      schema: {
        tags: ['organiser'],
        summary: "The current event's exhibitors: search (name, code, booth, account, e-mail), filters by module, flag, form status and account status; spec pagination",
        querystring: {
          type: 'object',
          properties: {
            ...pageQuerySchema.properties,
            keyword: { type: 'string', maxLength: 100 },
            module: { type: 'string', maxLength: 100 },
            flag: { type: 'string', maxLength: 100 },
            form: { type: 'string', maxLength: 40 },
            formStatus: { type: 'string', enum: FORM_STATUSES },
            status: { type: 'string', enum: ['active', 'disabled'] },
          },
          additionalProperties: false,
        },
        response: { 200: envelope(pageSchema(listItemSchema)) },
      },
    },
    async (request) => {
      const auth = requireAuth(request);
      const event = await currentOrganiserEvent(app.db, auth);
      const q = request.query;
      if (q.form && q.formStatus && !registry.find(q.form)) throw new AppError('badRequest');
      // Every filter is a condition on the participation alone: it carries its exhibitor's name
      // and searched texts (migration 0059), and has one main account (made with it).
      let query = app.db.selectFrom('participations').where('participations.event_id', '=', event.id);
      if (q.module) query = query.where(sql<boolean>`participations.displayed_modules @> ${JSON.stringify([q.module])}::jsonb`);
      if (q.flag) query = query.where(sql<boolean>`(participations.flags ->> ${q.flag}) = 'true'`);
      if (q.status) query = query.where('participations.status', '=', q.status);
      const now = new Date();
      if (q.form && q.formStatus) query = query.where(await formStatusFilter(event, registry.find(q.form)!, q.formStatus, now));
      // Folded as content search folds (case, width, diacritics): "minh phu" finds "Minh Phú".
      const keyword = searchKeyword(q.keyword ?? '');
      if (keyword) {
        // Rows whose texts changed since they were folded are folded first; one changed again
        // meanwhile is matched here on the texts just read.
        const unfolded = await refreshExhibitorSearchTexts(app.db, event.id);
        const matched = [...unfolded].filter(([, text]) => text.includes(keyword)).map(([id]) => id);
        const contains = sql<boolean>`participations.search_folded like ${containingPattern(keyword)}`;
        query = query.where(matched.length === 0 ? contains : sql<boolean>`(${contains} or participations.id = any(${sql.val(matched)}::int[]))`);
      }
      // The count and one page in the list's order (the exhibitor's name, then id), read along
      // the event's index of that order: a page stops at its last row, and the rows before it
      // are skipped on the participation alone (its exhibitor and account are read for the page's).
      const total = Number((await query.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow()).n);
      const page = pageOf(q, total);
      const pageIds = query.select('participations.id').orderBy('participations.list_name').orderBy('participations.id').limit(page.limit).offset(page.offset);
      const slice = await app.db
        .selectFrom('participations')
        .where('participations.id', 'in', pageIds)
        .innerJoin('exhibitors', 'exhibitors.id', 'participations.exhibitor_id')
        .leftJoin('users', (join) => join.onRef('users.participation_id', '=', 'participations.id').on('users.role', '=', 'exhibitor'))
        .select([
          'participations.id',
          'exhibitors.code',
          'exhibitors.name',
          'participations.booth_num',
          'users.login',
          'users.email',
          'participations.displayed_modules',
          'participations.status',
        ])
        .orderBy('participations.list_name')
        .orderBy('participations.id')
        .execute();
      const statuses = await statusesOf(
        event,
        slice.map((row) => row.id),
        now,
      );
      return ok({
        total,
        page: page.page,
        limit: page.limit,
        items: slice.map((row) => ({
          id: row.id,
          code: row.code ?? '',
          name: row.name,
          boothNum: row.booth_num,
          account: row.login ?? '',
          email: row.email ?? '',
          modules: row.displayed_modules as unknown as string[],
          status: row.status,
          forms: statuses.get(row.id) ?? {},
        })),
      });
    },
  );

  app.get(
    `${base}/:id`,
    {
      config: EDIT,
      schema: {
        tags: ['organiser'],
        summary: 'One exhibitor account of the current event, every field; overrides only where set',
        params: idParams,
        response: {
          200: envelope({
            ...exhibitorInputSchema,
            properties: {
              ...exhibitorInputSchema.properties,
              id: { type: 'integer' },
              status: { type: 'string', enum: ['active', 'disabled'] },
              forms: listItemSchema.properties.forms,
            },
            required: [...exhibitorInputSchema.required, 'id', 'status', 'forms'],
          }),
        },
      },
    },
    async (request) => {
      const { event, participation } = await organiserParticipation(app.db, requireAuth(request), request.params.id);
      const { userId: _userId, ...account } = (await readAccount(app.db, participation.id))!;
      const forms = (await statusesOf(event, [participation.id], new Date())).get(participation.id) ?? {};
      return ok({ id: participation.id, ...account, forms });
    },
  );

  app.post(
    base,
    {
      config: EDIT,
      schema: {
        tags: ['organiser'],
        summary: 'Create an exhibitor account in the current event (no e-mail until "send activation")',
        description: problemsDescription,
        body: exhibitorInputSchema,
        response: { 200: envelope({ type: 'object', properties: { id: { type: 'integer' } }, required: ['id'], additionalProperties: false }) },
      },
    },
    async (request) => {
      const auth = requireAuth(request);
      const organisationId = organisationOf(auth);
      const event = await currentOrganiserEvent(app.db, auth);
      const input = normaliseExhibitor(request.body);
      refuse(exhibitorProblems(input, names(), event.ends_at));
      const id = await app.db.transaction().execute(async (trx) => {
        refuse(await conflicts(trx, organisationId, event.id, input, null));
        const stored = await createAccount(trx, organisationId, event, input);
        await record(request, trx, 'exhibitor.create', event, stored.participationId, null, input);
        await app.webhooks.emit(
          { type: 'exhibitor.created', eventId: event.id, data: { participationId: stored.participationId, exhibitorId: stored.exhibitorId, code: input.code, name: input.name } },
          trx,
        );
        return stored.participationId;
      });
      return ok({ id });
    },
  );

  app.put(
    `${base}/:id`,
    {
      config: EDIT,
      schema: {
        tags: ['organiser'],
        summary: 'Change every field of an exhibitor account; it applies to the exhibitor’s next request',
        description: problemsDescription,
        params: idParams,
        body: exhibitorInputSchema,
        response: { 200: envelope() },
      },
    },
    async (request) => {
      const auth = requireAuth(request);
      const { event, participation } = await organiserParticipation(app.db, auth, request.params.id);
      const input = normaliseExhibitor(request.body);
      refuse(exhibitorProblems(input, names(), event.ends_at));
      await app.db.transaction().execute(async (trx) => {
        refuse(await conflicts(trx, organisationOf(auth), event.id, input, participation.id));
        const { status: _status, userId: _userId, ...before } = (await readAccount(trx, participation.id))!;
        await updateAccount(trx, event, participation.id, input);
        // Only what changed, before and after (a new contact shows as contactName: old → new).
        const changes = fieldChanges(before, input);
        await record(request, trx, 'exhibitor.update', event, participation.id, changes.before, changes.after);
      });
      return ok(null);
    },
  );

  app.put(
    `${base}/:id/status`,
    {
      config: EDIT,
      schema: {
        tags: ['organiser'],
        summary: 'Deactivate an exhibitor (its main account, team users and contractors are logged out and cannot log in) or activate it again',
        params: idParams,
        body: { type: 'object', required: ['status'], properties: { status: { type: 'string', enum: ['active', 'disabled'] } }, additionalProperties: false },
        response: { 200: envelope() },
      },
    },
    async (request) => {
      const { event, participation } = await organiserParticipation(app.db, requireAuth(request), request.params.id);
      const status = request.body.status;
      await app.db.transaction().execute(async (trx) => {
        await trx.updateTable('participations').set({ status }).where('id', '=', participation.id).execute();
        if (status === 'disabled') {
          const people = await trx.selectFrom('users').select('id').where('participation_id', '=', participation.id).execute();
          for (const person of people) await revokeUserSessions(trx, person.id);
        }
        await record(request, trx, status === 'disabled' ? 'exhibitor.deactivate' : 'exhibitor.activate', event, participation.id, { status: participation.status }, { status });
      });
      return ok(null);
    },
  );

  const mailBody = { type: 'object', properties: { language: { type: 'string', enum: [...LANGUAGES] } }, additionalProperties: false } as const;

  const mainUser = async (participationId: number) => {
    const user = await app.db.selectFrom('users').selectAll().where('participation_id', '=', participationId).where('role', '=', 'exhibitor').orderBy('id').executeTakeFirst();
    if (!user) throw new AppError('notFound');
    return user;
  };

  app.post(
    `${base}/:id/activation`,
    {
      config: EDIT,
      schema: {
        tags: ['organiser'],
        summary: 'Send (or resend) the activation e-mail: the account ID and a single-use link to set the password, valid 72 hours (queued)',
        params: idParams,
        body: mailBody,
        response: { 200: envelope() },
      },
    },
    async (request) => {
      const { event, participation } = await organiserParticipation(app.db, requireAuth(request), request.params.id);
      const user = await mainUser(participation.id);
      const language = request.body?.language ?? ((LANGUAGES as readonly string[]).includes(event.default_language) ? (event.default_language as Language) : 'en');
      const link = await createSetPasswordLink(app.db, config.publicUrl, user.id, EXHIBITOR_LINK_HOURS);
      const params = {
        name: user.display_name,
        exhibitor: participation.name,
        event: event.names[language] ?? event.name,
        account: user.login,
        link,
        hours: EXHIBITOR_LINK_HOURS,
        login: `${config.publicUrl}/login?exhibitCode=${encodeURIComponent(event.code)}`,
      };
      await app.mailer.send({
        to: user.email,
        subject: translate(language, 'mail.exhibitorActivation.subject', params),
        text: translate(language, 'mail.exhibitorActivation.text', params),
      });
      await record(request, app.db, 'exhibitor.activationSent', event, participation.id, null, { to: user.email, language });
      return ok(null);
    },
  );

  app.post(
    `${base}/:id/password-reset`,
    {
      config: EDIT,
      schema: {
        tags: ['organiser'],
        summary: 'Start a password reset for the exhibitor: the reset e-mail with a single-use link (queued)',
        params: idParams,
        body: mailBody,
        response: { 200: envelope() },
      },
    },
    async (request) => {
      const { event, participation } = await organiserParticipation(app.db, requireAuth(request), request.params.id);
      const user = await mainUser(participation.id);
      const language = request.body?.language ?? 'en';
      const link = await createSetPasswordLink(app.db, config.publicUrl, user.id, config.resetTokenMinutes / 60);
      const params = { name: user.display_name, account: user.login, link, minutes: config.resetTokenMinutes };
      await app.mailer.send({ to: user.email, subject: translate(language, 'mail.reset.subject', params), text: translate(language, 'mail.reset.text', params) });
      await record(request, app.db, 'exhibitor.passwordReset', event, participation.id, null, { to: user.email, language });
      return ok(null);
    },
  );
}
