import { describe, expect, it } from 'vitest';
import { fieldDepth } from './HeadingTitleField';

// Section titles nest one heading level per level of the form.

describe('fieldDepth', () => {
  it('counts the levels of a title id below the form', () => {
    expect(fieldDepth('root__title')).toBe(0);
    expect(fieldDepth('root_badges__title')).toBe(1);
    expect(fieldDepth('root_badges_0__title')).toBe(2);
    expect(fieldDepth('root_company_address__title')).toBe(2);
  });
});
