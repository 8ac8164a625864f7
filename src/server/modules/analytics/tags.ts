import type { ApiApp } from '../../lib/api-app';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import { API_BASE, CUSTOM_TAG_CHOICE_MAX_LENGTH, CUSTOM_TAG_CHOICES_MAX } from '../../../engine/constants';
import { customTagInputSchema } from '../../../engine/schemas/custom-tag';
import { canAddTag, checkCustomTag, errorIdOfTagProblem, normalizeTag, tooManyTagsProblem, type TagProblem } from '../../../engine/custom-tags';
import { AppError } from '../../lib/app-error';
import { envelope, NO_BODY } from '../../lib/schemas';
import { ok } from '../../plugins/errors';
import { ownParticipation } from './shared';

// LD6/V5: the custom tags of the caller's participation (exhibitor only, module Custom Tag).
// The engine's rules decide; a refusal stores nothing and answers the first problem with its
// id (tagExists, tagChoicesDuplicated, customTagsTooMany, tagChoicesTooMany) and every problem
// in data.problems.

const tagSchema = {
  type: 'object',
  properties: {
    id: { type: 'integer' },
    name: { type: 'string' },
    choices: { type: 'array', items: { type: 'string' } },
    position: { type: 'integer' },
  },
  required: ['id', 'name', 'choices', 'position'],
} as const;

const tagBody = customTagInputSchema;

/** PUT only: which stored choices were renamed (old → new), so the leads' answers follow. */
const tagUpdateBody = {
  ...tagBody,
  properties: {
    ...tagBody.properties,
    renamedChoices: {
      type: 'object',
      maxProperties: CUSTOM_TAG_CHOICES_MAX * 4,
      additionalProperties: { type: 'string', maxLength: CUSTOM_TAG_CHOICE_MAX_LENGTH * 4 },
      description:
        'Stored choice → its new text. The leads that chose the old text are changed to the new one in the same transaction. A rename whose old text is not a stored choice, or whose new text is not among `choices`, is ignored. A choice removed without a rename stays on the leads that chose it (shown there as no longer a choice, removable).',
    },
  },
} as const;

const idParams = { type: 'object', properties: { id: { type: 'integer', minimum: 1, maximum: 2147483647 } }, required: ['id'] } as const;

function refuse(problems: TagProblem[]): never {
  const [first] = problems;
  throw new AppError(errorIdOfTagProblem(first!), { problems }, first!.params, first!.key);
}

/**
 * LD6: a renamed choice is renamed in the answers of every lead that chose it (one statement;
 * order kept, a choice the lead already had under the new text is not doubled).
 */
async function renameAnswers(trx: Kysely<Database>, participationId: number, tagId: number, renames: ReadonlyArray<readonly [string, string]>): Promise<void> {
  const key = String(tagId);
  const mapping = JSON.stringify(Object.fromEntries(renames));
  await sql`
    update leads set tag_answers = jsonb_set(tag_answers, array[${key}]::text[], (
      select coalesce(jsonb_agg(to_jsonb(choice) order by first), '[]'::jsonb)
      from (
        select coalesce(${mapping}::jsonb ->> e.value, e.value) as choice, min(e.ord) as first
        from jsonb_array_elements_text(tag_answers -> ${key}) with ordinality as e(value, ord)
        group by 1
      ) renamed))
    where participation_id = ${participationId}
      and jsonb_typeof(tag_answers -> ${key}) = 'array'
      and (tag_answers -> ${key}) ?| array[${sql.join(renames.map(([from]) => sql`${from}::text`))}]`.execute(trx);
}

function isUniqueViolation(error: unknown): boolean {
  return (error as { code?: string } | null)?.code === '23505';
}

export default async function customTagRoutes(app: ApiApp) {
  const base = `${API_BASE}/custom-tags`;
  const config = { screen: 'customTag' } as const;

  const list = (participationId: number) =>
    app.db.selectFrom('custom_tags').select(['id', 'name', 'choices', 'position']).where('participation_id', '=', participationId).orderBy('position').orderBy('id').execute();

  app.get(
    base,
    { config, schema: { tags: ['custom tags'], summary: 'LD6: the custom tags of my participation', response: { 200: envelope({ type: 'array', items: tagSchema }) } } },
    async (request) => ok(await list(ownParticipation(request).participation.id)),
  );

  app.post(
    base,
    {
      config,
      schema: {
        tags: ['custom tags'],
        summary: `LD6/V5: add a tag (at most 3 tags of at most ${CUSTOM_TAG_CHOICES_MAX} choices; names and choices unique)`,
        body: tagBody,
        response: { 200: envelope(tagSchema) },
      },
    },
    async (request) => {
      const { participation } = ownParticipation(request);
      const tag = normalizeTag(request.body);
      try {
        const created = await app.db.transaction().execute(async (trx) => {
          // One writer per participation at a time, so two adds cannot pass the limit together.
          await trx.selectFrom('participations').select('id').where('id', '=', participation.id).forUpdate().execute();
          const existing = await trx.selectFrom('custom_tags').select(['name', 'position']).where('participation_id', '=', participation.id).execute();
          if (!canAddTag(existing.length)) refuse([tooManyTagsProblem()]);
          const problems = checkCustomTag(
            tag,
            existing.map((e) => e.name),
          );
          if (problems.length > 0) refuse(problems);
          const position = existing.reduce((max, e) => Math.max(max, e.position + 1), 0);
          return trx
            .insertInto('custom_tags')
            .values({ participation_id: participation.id, name: tag.name, choices: JSON.stringify(tag.choices), position })
            .returning(['id', 'name', 'choices', 'position'])
            .executeTakeFirstOrThrow();
        });
        return ok(created);
      } catch (error) {
        if (isUniqueViolation(error)) refuse([{ field: 'name', key: 'errors.tagExists', params: {} }]);
        throw error;
      }
    },
  );

  app.put(
    `${base}/:id`,
    {
      config,
      schema: {
        tags: ['custom tags'],
        summary: 'LD6/V5: change a tag of my participation; renamed choices are renamed on the leads too',
        params: idParams,
        body: tagUpdateBody,
        response: { 200: envelope(tagSchema) },
      },
    },
    async (request) => {
      const { participation } = ownParticipation(request);
      const tag = normalizeTag(request.body);
      try {
        const updated = await app.db.transaction().execute(async (trx) => {
          await trx.selectFrom('participations').select('id').where('id', '=', participation.id).forUpdate().execute();
          const existing = await trx.selectFrom('custom_tags').select(['id', 'name', 'choices']).where('participation_id', '=', participation.id).execute();
          // Another exhibitor's tag and an unknown id look the same.
          if (!existing.some((e) => e.id === request.params.id)) throw new AppError('notFound');
          const problems = checkCustomTag(
            tag,
            existing.filter((e) => e.id !== request.params.id).map((e) => e.name),
          );
          if (problems.length > 0) refuse(problems);
          const before = (existing.find((e) => e.id === request.params.id)!.choices ?? []) as string[];
          const renames = Object.entries(request.body.renamedChoices ?? {})
            .map(([from, to]) => [from, to.trim()] as const)
            .filter(([from, to]) => from !== to && before.includes(from) && !tag.choices.includes(from) && tag.choices.includes(to));
          if (renames.length > 0) await renameAnswers(trx, participation.id, request.params.id, renames);
          return trx
            .updateTable('custom_tags')
            .set({ name: tag.name, choices: JSON.stringify(tag.choices) })
            .where('id', '=', request.params.id)
            .where('participation_id', '=', participation.id)
            .returning(['id', 'name', 'choices', 'position'])
            .executeTakeFirstOrThrow();
        });
        return ok(updated);
      } catch (error) {
        if (isUniqueViolation(error)) refuse([{ field: 'name', key: 'errors.tagExists', params: {} }]);
        throw error;
      }
    },
  );

  app.delete(
    `${base}/:id`,
    { config, schema: { tags: ['custom tags'], summary: 'LD6: delete a tag of my participation', params: idParams, body: NO_BODY, response: { 200: envelope() } } },
    async (request) => {
      const { participation } = ownParticipation(request);
      await app.db.transaction().execute(async (trx) => {
        const deleted = await trx.deleteFrom('custom_tags').where('id', '=', request.params.id).where('participation_id', '=', participation.id).executeTakeFirst();
        if (Number(deleted.numDeletedRows) !== 1) throw new AppError('notFound');
        // The tag's column leaves the lists and exports: its answers leave the leads too.
        await sql`update leads set tag_answers = tag_answers - ${String(request.params.id)}
          where participation_id = ${participation.id} and tag_answers ? ${String(request.params.id)}`.execute(trx);
      });
      return ok(null);
    },
  );
}
