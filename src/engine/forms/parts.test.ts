import { describe, expect, it } from 'vitest';
import { approvalPart, hasEnteredValue, partChanged, partHasData, partProblems, partsFilledBy, partsOf, partStates, partsToSubmit, withPartsFrom } from './parts';

const schema = { properties: { contractor: {}, contractorType: {}, boothDesign: {}, boothHeight: {} } };
const definition = { id: 'x', audience: 'both', parts: [{ id: 'contractor', filledBy: ['contractor' as const, 'exhibitor' as const], fields: ['contractor', 'contractorType'] }] };

describe('P1 F4 form parts', () => {
  it("the exhibitor's part is every property no declared part names", () => {
    const parts = partsOf(definition, schema)!;
    expect(parts.map((part) => [part.id, part.fields])).toEqual([
      ['exhibitor', ['boothDesign', 'boothHeight']],
      ['contractor', ['contractor', 'contractorType']],
    ]);
    expect(partsFilledBy(parts, 'contractor').map((part) => part.id)).toEqual(['contractor']);
    expect(partsFilledBy(parts, 'exhibitor').map((part) => part.id)).toEqual(['exhibitor', 'contractor']);
    expect(approvalPart(parts, { when: 'above', field: 'boothHeight' })?.id).toBe('exhibitor');
    expect(partsOf({}, schema)).toBeNull();
  });

  it('an entry submitted whole before parts existed counts as every part submitted then', () => {
    const parts = partsOf(definition, schema)!;
    const at = new Date('2027-01-02T03:04:05Z');
    expect(partStates({ parts: null, submitted_at: at, submitted_by: 7 }, parts)).toEqual({
      exhibitor: { submittedAt: at.toISOString(), submittedBy: 7 },
      contractor: { submittedAt: at.toISOString(), submittedBy: 7 },
    });
    expect(partStates({ parts: null, submitted_at: null, submitted_by: null }, parts)).toEqual({});
  });

  it("a part's submission replaces that part's fields only", () => {
    const parts = partsOf(definition, schema)!;
    const submitted = { boothHeight: 2.2, contractorType: 'contractor' };
    const data = { boothHeight: 3, contractor: { company: 'A' } };
    expect(withPartsFrom(submitted, data, [parts[1]!])).toEqual({ boothHeight: 2.2, contractor: { company: 'A' } });
    expect(partChanged(parts[0]!, data, submitted)).toBe(true);
    expect(partChanged(parts[0]!, { boothHeight: 2.2 }, submitted)).toBe(false);
  });

  it('a wrong declaration is refused with where it is wrong', () => {
    expect(partProblems(definition)).toEqual([]);
    expect(partProblems({ ...definition, audience: 'exhibitor' })).toEqual(['schemas/forms/forms.yaml (x) parts: only a form for contractors (audience: both) has parts']);
    const wrong = {
      id: 'x',
      audience: 'both',
      parts: [
        { id: 'exhibitor', filledBy: ['visitor' as never], fields: ['boothHeight'] },
        { id: 'other', filledBy: ['contractor' as const], fields: ['boothHeight'] },
      ],
    };
    expect(partProblems(wrong)).toEqual([
      'schemas/forms/forms.yaml (x) parts: "exhibitor" is taken',
      'schemas/forms/forms.yaml (x) parts (exhibitor): filledBy lists exhibitor and/or contractor',
      'schemas/forms/forms.yaml (x) parts (other): "boothHeight" belongs to two parts',
    ]);
  });

  it("a form's own defaults are no entry: a part holding only them is not filled and not submitted by the side that may fill it", () => {
    const withDefaults = {
      properties: { ...schema.properties, contractor: { type: 'object', properties: { company: { type: 'string' }, official: { type: 'boolean', default: false } } } },
    };
    const parts = partsOf(definition, withDefaults)!;
    const [booth, contractor] = parts as [(typeof parts)[0], (typeof parts)[0]];
    expect(hasEnteredValue({ official: false }, withDefaults.properties.contractor)).toBe(false);
    expect(hasEnteredValue({ official: true }, withDefaults.properties.contractor)).toBe(true);
    expect(hasEnteredValue({ company: '' }, withDefaults.properties.contractor)).toBe(false);
    expect(hasEnteredValue([], {})).toBe(false);
    expect(hasEnteredValue(0, { type: 'number' })).toBe(true);
    const untouched = { contractor: { official: false }, boothDesign: {}, boothHeight: 3.2 };
    expect(partHasData(contractor, untouched)).toBe(false);
    expect(partHasData(booth, untouched)).toBe(true);
    const exhibitor = { mine: [booth, contractor], own: [booth], locked: [], submitted: [] };
    expect(partsToSubmit(exhibitor, untouched, null).map((part) => part.id)).toEqual(['exhibitor']);
    expect(partsToSubmit(exhibitor, { ...untouched, contractor: { company: 'Rimba' } }, null).map((part) => part.id)).toEqual(['exhibitor', 'contractor']);
    // Submitted, a part is sent again only when changed; nothing changed sends the user's own parts.
    expect(partsToSubmit({ ...exhibitor, submitted: ['exhibitor'] }, untouched, untouched).map((part) => part.id)).toEqual(['exhibitor']);
    expect(partsToSubmit({ mine: [contractor], own: [contractor], locked: [], submitted: [] }, {}, null).map((part) => part.id)).toEqual(['contractor']);
  });
});
