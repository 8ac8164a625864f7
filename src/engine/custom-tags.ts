import { CUSTOM_TAG_CHOICE_MAX_LENGTH, CUSTOM_TAG_CHOICES_MAX, CUSTOM_TAG_NAME_MAX_LENGTH, CUSTOM_TAGS_MAX } from './constants';
import type { CustomTagInput } from './schemas/custom-tag';

// LD6/V5: an exhibitor's custom tags (questions its team answers when qualifying a lead), at
// most CUSTOM_TAGS_MAX tags of at most CUSTOM_TAG_CHOICES_MAX choices. One definition of the
// rules, used by the custom tag page (messages beside the fields, before sending), by the
// server (nothing is stored on refusal) and by the `customTags` form keyword (forms/rules.ts).

/** Where a problem belongs: the list (too many tags), the name, the choices, or one choice. */
export type TagProblemField = 'tags' | 'name' | 'choices' | 'choice';

export interface TagProblem {
  field: TagProblemField;
  /** The choice's position, for field 'choice'. */
  index?: number;
  /** Locale key of the message. */
  key: string;
  params: Record<string, string | number>;
}

/** Tag names and choices compare trimmed and case-insensitively ("Budget " = "budget"). */
function tagKey(text: string): string {
  return text.trim().toLocaleLowerCase();
}

/** The tag as it is stored: name and choices trimmed. */
export function normalizeTag(tag: CustomTagInput): CustomTagInput {
  return { name: tag.name.trim(), choices: tag.choices.map((choice) => choice.trim()) };
}

/** A new tag may be added only below the limit. */
export function canAddTag(existingCount: number): boolean {
  return existingCount < CUSTOM_TAGS_MAX;
}

export function tooManyTagsProblem(): TagProblem {
  return { field: 'tags', key: 'customTags.tooMany', params: { limit: CUSTOM_TAGS_MAX } };
}

/**
 * Every problem of one tag, given the names of the participation's other tags (without the tag
 * being edited). An empty list means the tag may be saved.
 */
export function checkCustomTag(tag: CustomTagInput, otherNames: readonly string[]): TagProblem[] {
  const problems: TagProblem[] = [];
  const name = tag.name.trim();
  if (name === '') problems.push({ field: 'name', key: 'customTags.nameRequired', params: {} });
  else if (name.length > CUSTOM_TAG_NAME_MAX_LENGTH) problems.push({ field: 'name', key: 'customTags.nameTooLong', params: { limit: CUSTOM_TAG_NAME_MAX_LENGTH } });
  else if (otherNames.some((other) => tagKey(other) === tagKey(name))) problems.push({ field: 'name', key: 'errors.tagExists', params: {} });

  if (tag.choices.length === 0) problems.push({ field: 'choices', key: 'customTags.choicesRequired', params: {} });
  if (tag.choices.length > CUSTOM_TAG_CHOICES_MAX) problems.push({ field: 'choices', key: 'customTags.tooManyChoices', params: { limit: CUSTOM_TAG_CHOICES_MAX } });
  const seen = new Set<string>();
  tag.choices.forEach((choice, index) => {
    const text = choice.trim();
    if (text === '') problems.push({ field: 'choice', index, key: 'customTags.choiceRequired', params: {} });
    else if (text.length > CUSTOM_TAG_CHOICE_MAX_LENGTH)
      problems.push({ field: 'choice', index, key: 'customTags.choiceTooLong', params: { limit: CUSTOM_TAG_CHOICE_MAX_LENGTH } });
    else if (seen.has(tagKey(text))) problems.push({ field: 'choice', index, key: 'errors.tagChoicesDuplicated', params: {} });
    seen.add(tagKey(text));
  });
  return problems;
}

/** Every problem of a whole list of tags: the count, then each tag against the ones before it. */
export function checkCustomTags(tags: readonly CustomTagInput[]): TagProblem[] {
  const problems: TagProblem[] = tags.length > CUSTOM_TAGS_MAX ? [tooManyTagsProblem()] : [];
  tags.forEach((tag, position) => {
    problems.push(
      ...checkCustomTag(
        tag,
        tags.slice(0, position).map((earlier) => earlier.name),
      ),
    );
  });
  return problems;
}

/** Tag problems by how the server reports them (error ids of src/engine/errors.ts). */
export function errorIdOfTagProblem(problem: TagProblem): 'tagExists' | 'tagChoicesDuplicated' | 'customTagsTooMany' | 'tagChoicesTooMany' | 'validationFailed' {
  switch (problem.key) {
    case 'errors.tagExists':
      return 'tagExists';
    case 'errors.tagChoicesDuplicated':
      return 'tagChoicesDuplicated';
    case 'customTags.tooMany':
      return 'customTagsTooMany';
    case 'customTags.tooManyChoices':
      return 'tagChoicesTooMany';
    default:
      return 'validationFailed';
  }
}
