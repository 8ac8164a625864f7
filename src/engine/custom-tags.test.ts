import { describe, expect, it } from 'vitest';
import { canAddTag, checkCustomTag, checkCustomTags, errorIdOfTagProblem, normalizeTag } from './custom-tags';
import { RULES } from './forms/rules';
import { validateForm } from './forms/validator';

const choices = (n: number) => Array.from({ length: n }, (_, i) => `Choice ${i + 1}`);

describe('V5 custom tag rules', () => {
  it('V5 a tag with a name and distinct choices passes', () => {
    expect(checkCustomTag({ name: 'Budget', choices: ['< 10k', '10k-50k', '> 50k'] }, ['Region'])).toEqual([]);
  });
  it('V5 a duplicate tag name (trimmed, any case) is refused with the spec message key', () => {
    expect(checkCustomTag({ name: '  budget ', choices: ['a'] }, ['Budget'])).toEqual([{ field: 'name', key: 'errors.tagExists', params: {} }]);
  });
  it('V5 duplicate choices (trimmed, any case) are refused at the second one', () => {
    expect(checkCustomTag({ name: 'Size', choices: ['Small', 'Large', ' small'] }, [])).toEqual([{ field: 'choice', index: 2, key: 'errors.tagChoicesDuplicated', params: {} }]);
  });
  it('V5 ten choices pass, eleven are refused', () => {
    expect(checkCustomTag({ name: 'Many', choices: choices(10) }, [])).toEqual([]);
    expect(checkCustomTag({ name: 'Many', choices: choices(11) }, [])).toEqual([{ field: 'choices', key: 'customTags.tooManyChoices', params: { limit: 10 } }]);
  });
  it('V5 empty names, no choices and empty choices are refused', () => {
    expect(checkCustomTag({ name: '  ', choices: [] }, []).map((p) => p.key)).toEqual(['customTags.nameRequired', 'customTags.choicesRequired']);
    expect(checkCustomTag({ name: 'X', choices: ['a', ' '] }, [])).toEqual([{ field: 'choice', index: 1, key: 'customTags.choiceRequired', params: {} }]);
  });
  it('V5 at most three tags', () => {
    expect(canAddTag(2)).toBe(true);
    expect(canAddTag(3)).toBe(false);
    const tags = ['A', 'B', 'C', 'D'].map((name) => ({ name, choices: ['x'] }));
    expect(checkCustomTags(tags.slice(0, 3))).toEqual([]);
    expect(checkCustomTags(tags)[0]).toEqual({ field: 'tags', key: 'customTags.tooMany', params: { limit: 3 } });
    expect(
      checkCustomTags([
        { name: 'A', choices: ['x'] },
        { name: 'a', choices: ['y'] },
      ])[0]?.key,
    ).toBe('errors.tagExists');
  });
  it('maps problems to the server error ids and trims what is stored', () => {
    expect(errorIdOfTagProblem({ field: 'name', key: 'errors.tagExists', params: {} })).toBe('tagExists');
    expect(errorIdOfTagProblem({ field: 'choice', key: 'errors.tagChoicesDuplicated', params: {} })).toBe('tagChoicesDuplicated');
    expect(errorIdOfTagProblem({ field: 'tags', key: 'customTags.tooMany', params: {} })).toBe('customTagsTooMany');
    expect(normalizeTag({ name: ' Budget ', choices: [' a ', 'b'] })).toEqual({ name: 'Budget', choices: ['a', 'b'] });
  });
});

describe('V5 the customTags form keyword runs the same rule', () => {
  const schema = { type: 'object', properties: { tags: { type: 'array', customTags: true } } };
  const context = { flags: {}, quotas: {} };
  it('passes valid tags and refuses duplicates and too many with the same keys', () => {
    expect(validateForm(schema, { tags: [{ name: 'A', choices: ['x', 'y'] }] }, context)).toEqual([]);
    expect(validateForm(schema, { tags: [{ name: 'A', choices: ['x', 'X'] }] }, context)).toEqual([{ path: '/tags', key: 'errors.tagChoicesDuplicated', params: {} }]);
    expect(
      validateForm(
        schema,
        {
          tags: [
            { name: 'A', choices: ['x'] },
            { name: 'a ', choices: ['y'] },
          ],
        },
        context,
      )[0]?.key,
    ).toBe('errors.tagExists');
    const four = ['A', 'B', 'C', 'D'].map((name) => ({ name, choices: ['x'] }));
    expect(validateForm(schema, { tags: four }, context)[0]).toEqual({ path: '/tags', key: 'customTags.tooMany', params: { limit: 3 } });
  });
  it('the rule is off when the keyword is false', () => {
    expect(RULES.customTags(false, [{ name: 'A', choices: ['x', 'x'] }])).toBeNull();
  });
});
