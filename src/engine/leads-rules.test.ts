import { describe, expect, it } from 'vitest';
import { checkScanTime, csvField, dayRangeInstants, neutraliseCell, parseLeadQuery, validateQualification } from './leads-rules';

describe('lead rules', () => {
  it('LD1 scan times: ISO with a zone, not more than a day ahead, not before 2000', () => {
    const now = Date.parse('2027-03-17T02:00:00Z');
    expect(checkScanTime('2027-03-17T01:59:00Z', now)).toBeNull();
    expect(checkScanTime('2027-03-17T10:15:00+08:00', now)).toBeNull();
    expect(checkScanTime('2027-03-17 01:59', now)).toBe('format');
    expect(checkScanTime('2027-03-19T02:00:00Z', now)).toBe('future');
    expect(checkScanTime('1970-01-01T00:00:00Z', now)).toBe('past');
  });

  it('V6 LD3 qualification: required codes, unknown badge needs name and company, tag answers are choices', () => {
    const tags = [{ id: 3, name: 'Interest', choices: ['Honey', 'Rice'] }];
    const empty = { leadType: null, temperature: null, followUp: null, notes: '', tagAnswers: {}, businessCard: null };
    expect(validateQualification(empty, { badgeKnown: true, tags })).toEqual({
      leadType: 'leads.required.leadType',
      temperature: 'leads.required.temperature',
      followUp: 'leads.required.followUp',
    });
    const filled = { ...empty, leadType: 'partner', temperature: 'hot', followUp: 'other' };
    expect(validateQualification(filled, { badgeKnown: true, tags })).toEqual({});
    expect(validateQualification({ ...filled, visitorName: ' ' }, { badgeKnown: false, tags })).toEqual({
      visitorName: 'leads.required.visitorName',
      company: 'leads.required.visitorCompany',
    });
    expect(validateQualification({ ...filled, tagAnswers: { '3': ['Durian'] } }, { badgeKnown: true, tags }).tagAnswers).toBe('leads.validation.tagChoice');
    expect(validateQualification({ ...filled, tagAnswers: { '4': ['Honey'] } }, { badgeKnown: true, tags }).tagAnswers).toBe('leads.validation.tagChoice');
    expect(validateQualification({ ...filled, tagAnswers: { '3': ['Honey', 'Honey'] } }, { badgeKnown: true, tags }).tagAnswers).toBe('leads.validation.tagChoice');
    expect(validateQualification({ ...filled, leadType: 'vip' }, { badgeKnown: true, tags }).leadType).toBe('validation.enum');
  });

  it('LD2 a hand-edited query falls back to safe values', () => {
    expect(parseLeadQuery({ page: '0', limit: '25', sort: 'password', order: 'up', leadType: 'vip', from: '2027-13-40', scannedBy: '-1' })).toEqual({
      leadType: undefined,
      temperature: undefined,
      followUp: undefined,
      scannedBy: undefined,
      from: undefined,
      to: undefined,
      country: undefined,
      keyword: undefined,
      page: 1,
      limit: 20,
      sort: 'scannedAt',
      order: 'desc',
    });
    expect(parseLeadQuery({ leadType: 'none', temperature: 'hot', limit: '50', sort: 'name', order: 'asc' })).toMatchObject({
      leadType: 'none',
      temperature: 'hot',
      limit: 50,
      sort: 'name',
      order: 'asc',
    });
  });

  it('LD2 event days are whole days in event time', () => {
    expect(dayRangeInstants('2027-03-17', '2027-03-17', 480)).toEqual({ start: new Date('2027-03-16T16:00:00Z'), end: new Date('2027-03-17T16:00:00Z') });
  });

  it('LD4 formula-like cells are neutralised; CSV fields are quoted when needed', () => {
    for (const value of ['=1+1', '+A1', '-2+cmd|x', '@SUM(A1)', '\tx', '\rx', '+84 3186 HYPERLINK']) expect(neutraliseCell(value)).toBe(`'${value}`);
    // Phone numbers and signed numbers name nothing: written as captured, readable.
    for (const value of ['+84 31864359', '+1 (555) 010-9999', '-2', '+60 3-2161 0000']) expect(neutraliseCell(value)).toBe(value);
    expect(neutraliseCell('Honey')).toBe('Honey');
    expect(csvField('a,"b"')).toBe('"a,""b"""');
    expect(csvField('=HYPERLINK("x")')).toBe(`"'=HYPERLINK(""x"")"`);
  });
});
