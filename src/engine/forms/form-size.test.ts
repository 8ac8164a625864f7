import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FORM_DATA_BASE_CHARS, FORM_DATA_MAX_CHARS, formDataLimit, valueBudget } from './form-size';

// F9: a form's data may be as large as its schema allows, and no larger.

const s04 = JSON.parse(readFileSync(join(import.meta.dirname, '../../../schemas/forms/s04.schema.json'), 'utf8'));
const item = { type: 'object', properties: { name: { type: 'string', maxLength: 10 }, size: { enum: ['small', 'large'] }, seats: { type: 'integer' }, vip: { type: 'boolean' } } };

describe('form data size', () => {
  it('counts each value at its largest: texts at maxLength, the longest choice, numbers and yes/no', () => {
    // {"name":"……10……","size":"small","seats":…,"vip":false}
    expect(valueBudget(item)).toBe(2 + (4 + 4 + 12) + (4 + 4 + 7) + (5 + 4 + 24) + (3 + 4 + 5));
    const fullest = { name: 'x'.repeat(10), size: 'large', seats: -1.2345678901234567e-300, vip: false };
    expect(JSON.stringify(fullest).length).toBeLessThanOrEqual(valueBudget(item));
  });

  it('gives a form room for its lists’ declared maximum of items, within the portal’s maximum', () => {
    expect(formDataLimit({ type: 'object', properties: { guests: { type: 'array', items: item } } })).toBe(FORM_DATA_BASE_CHARS);
    expect(formDataLimit({ type: 'object', properties: { guests: { type: 'array', maxItems: 100, items: item } } })).toBe(FORM_DATA_BASE_CHARS + 100 * (valueBudget(item) + 1));
    expect(formDataLimit({ type: 'object', properties: { guests: { type: 'array', maxItems: 10_000_000, items: item } } })).toBe(FORM_DATA_MAX_CHARS);
  });

  it('S04 declares 2,000 badges: every one of them at its longest fits', () => {
    const badges = s04.properties.badges;
    expect(badges.maxItems).toBe(2000);
    const longest = Object.fromEntries(
      Object.entries(badges.items.properties as Record<string, { type?: string; maxLength?: number; enum?: string[] }>).map(([name, node]) => [
        name,
        node.enum ? node.enum.reduce((a, b) => (a.length >= b.length ? a : b)) : node.type === 'boolean' ? false : 'x'.repeat(node.maxLength ?? 50),
      ]),
    );
    const data = { badges: Array.from({ length: 2000 }, () => longest) };
    expect(JSON.stringify(data).length).toBeLessThanOrEqual(formDataLimit(s04));
  });
});
