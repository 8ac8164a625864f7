import { describe, expect, it } from 'vitest';
import type { FormDefinition } from './definitions';
import {
  closedTo,
  fixedFields,
  isSubmitOnce,
  lockedForUser,
  lockedSince,
  partsSent,
  prerequisitesOf,
  statusForUser,
  submissionOf,
  userParts,
  visibleToRole,
  type EntryState,
} from './lifecycle';

// The combinations users live in: an exhibitor and its booth contractor sharing one form, a
// submit-once form the organiser reopens, forms that wait for others to be submitted first.

const booth = {
  id: 'booth',
  code: 'B01',
  title: 'forms.booth.title',
  screen: null,
  mandatory: true,
  deadline: 'booth',
  submitOnceFlag: 'boothSubmitOnce',
  prerequisites: ['company'],
  audience: 'both',
  parts: [{ id: 'contractor', filledBy: ['contractor', 'exhibitor'], fields: ['contractor', 'contractorType'] }],
  approval: { when: 'above', field: 'boothHeight', limit: 2.44 },
} as unknown as FormDefinition;
const company = { id: 'company', code: 'C01', deadline: 'company', prerequisites: [], audience: 'exhibitor' } as unknown as FormDefinition;
const schema = { properties: { contractor: { type: 'string' }, contractorType: { type: 'string' }, boothDesign: { type: 'string' }, boothHeight: { type: 'number' } } };
const forms = new Map([
  ['booth', booth],
  ['company', company],
]);
const find = (id: string) => forms.get(id);

const now = new Date('2027-03-01T10:00:00Z');
const earlier = (minutes: number) => new Date(now.getTime() - minutes * 60_000);

function entry(fields: Partial<EntryState>): EntryState {
  return { status: 'draft', data: {}, submitted_data: null, submitted_at: null, submitted_by: null, parts: null, approval_status: null, ...fields };
}

describe('F10 prerequisites', () => {
  it('names the forms to submit first by code, and those of them past their deadline', () => {
    const entries = new Map([['company', { status: 'draft' as const }]]);
    expect(prerequisitesOf(booth, {}, entries, find, now)).toEqual({ missing: ['C01'], closed: [] });
    expect(prerequisitesOf(booth, { company: earlier(1) }, entries, find, now)).toEqual({ missing: ['C01'], closed: ['C01'] });
    expect(prerequisitesOf(booth, { company: earlier(1) }, new Map([['company', { status: 'submitted' as const }]]), find, now)).toEqual({ missing: [], closed: [] });
  });

  it('a prerequisite submitted by either side of a shared form counts once the entry is submitted', () => {
    // The prerequisite is about the entry: a contractor's part submitted makes the entry submitted.
    const entries = new Map([['company', { status: 'submitted' as const }]]);
    expect(prerequisitesOf(booth, {}, entries, find, now).missing).toEqual([]);
  });
});

describe('submit-once and reopening', () => {
  it('is submit-once only for an exhibitor with the flag', () => {
    expect(isSubmitOnce(booth, { boothSubmitOnce: true })).toBe(true);
    expect(isSubmitOnce(booth, { boothSubmitOnce: false })).toBe(false);
    expect(isSubmitOnce(company, { boothSubmitOnce: true })).toBe(false);
  });

  it('a submission closes the form; a reopening opens it until the next submission', () => {
    expect(lockedSince(null, true, earlier(5))).toBe(false);
    expect(lockedSince({ reopenedAt: null }, false, null)).toBe(false);
    expect(lockedSince({ reopenedAt: null }, true, earlier(5))).toBe(true);
    // Reopened after the submission: open.
    expect(lockedSince({ reopenedAt: earlier(2) }, true, earlier(5))).toBe(false);
    // Submitted again after the reopening: closed again.
    expect(lockedSince({ reopenedAt: earlier(2) }, true, earlier(1))).toBe(true);
  });

  it('a form of one part is refused as submit-once before its deadline is looked at', () => {
    const submitted = entry({ status: 'submitted', submitted_at: earlier(5) });
    expect(closedTo(null, { reopenedAt: null }, submitted, earlier(1), now)).toBe('submitOnce');
    expect(closedTo(null, { reopenedAt: earlier(2) }, submitted, earlier(1), now)).toBe('deadlinePassed');
    expect(closedTo(null, { reopenedAt: earlier(2) }, submitted, null, now)).toBeNull();
    expect(closedTo(null, null, submitted, null, now)).toBeNull();
  });
});

describe('P1 F4 an exhibitor with a contractor part', () => {
  const contractorSubmitted = entry({
    status: 'submitted',
    data: { contractor: 'Acme Booths', contractorType: 'standBuilder' },
    submitted_data: { contractor: 'Acme Booths', contractorType: 'standBuilder' },
    submitted_at: earlier(10),
    parts: { contractor: { submittedAt: earlier(10).toISOString(), submittedBy: 9 } },
  });

  it('the contractor fills its part only; the exhibitor fills both, its own first', () => {
    const forContractor = userParts(booth, schema, 'contractor', contractorSubmitted, null, null, now)!;
    expect(forContractor.mine.map((part) => part.id)).toEqual(['contractor']);
    expect(forContractor.own.map((part) => part.id)).toEqual(['contractor']);
    const forExhibitor = userParts(booth, schema, 'exhibitor', contractorSubmitted, null, null, now)!;
    expect(forExhibitor.mine.map((part) => part.id)).toEqual(['exhibitor', 'contractor']);
    expect(forExhibitor.own.map((part) => part.id)).toEqual(['exhibitor']);
    expect(forExhibitor.view.map((part) => [part.id, part.status])).toEqual([
      ['exhibitor', 'notStarted'],
      ['contractor', 'submitted'],
    ]);
    // The exhibitor reads the form as its own part: not submitted yet.
    expect(statusForUser(contractorSubmitted, null, now, forExhibitor).status).toBe('notStarted');
    expect(statusForUser(contractorSubmitted, null, now, forContractor).status).toBe('submitted');
    expect(userParts(company, schema, 'exhibitor', null, null, null, now)).toBeNull();
  });

  it("submit-once locks the contractor's part on its own; the exhibitor may still submit its part", () => {
    const submitOnce = { reopenedAt: null };
    const forExhibitor = userParts(booth, schema, 'exhibitor', contractorSubmitted, submitOnce, null, now)!;
    expect(forExhibitor.locked).toEqual(['contractor']);
    expect(lockedForUser(forExhibitor, submitOnce, contractorSubmitted)).toBe(false);
    const forContractor = userParts(booth, schema, 'contractor', contractorSubmitted, submitOnce, null, now)!;
    expect(lockedForUser(forContractor, submitOnce, contractorSubmitted)).toBe(true);
    expect(closedTo(forContractor, submitOnce, contractorSubmitted, null, now)).toBe('submitOnce');
    // The locked part's fields are kept as stored; a change to them is refused as submit-once.
    expect(fixedFields(forExhibitor)).toEqual({ fixed: ['contractor', 'contractorType'], locked: ['contractor', 'contractorType'] });
    expect(fixedFields(forContractor)).toEqual({ fixed: ['boothDesign', 'boothHeight', 'contractor', 'contractorType'], locked: ['contractor', 'contractorType'] });
  });

  it('a submission sends the own part, and another part only when the user filled it', () => {
    const fresh = userParts(booth, schema, 'exhibitor', null, null, null, now)!;
    expect(partsSent(fresh, { boothHeight: 2.3 }, null).map((part) => part.id)).toEqual(['exhibitor']);
    expect(partsSent(fresh, { boothHeight: 2.3, contractor: 'Own build' }, null).map((part) => part.id)).toEqual(['exhibitor', 'contractor']);
  });

  it("the approval follows the part the rule reads: the contractor's submission keeps the exhibitor part's decision", () => {
    const at = earlier(0);
    const forExhibitor = userParts(booth, schema, 'exhibitor', contractorSubmitted, null, null, now)!;
    const exhibitorPart = forExhibitor.parts.filter((part) => part.id === 'exhibitor');
    const high = submissionOf({ ...contractorSubmitted.data, boothHeight: 3.1 }, contractorSubmitted, booth.approval, { parts: forExhibitor, sending: exhibitorPart }, 4, at);
    expect(high.approval).toBe('pending');
    expect(high.submittedData).toEqual({ contractor: 'Acme Booths', contractorType: 'standBuilder', boothHeight: 3.1 });
    expect(Object.keys(high.parts!)).toEqual(['contractor', 'exhibitor']);
    const forContractor = userParts(booth, schema, 'contractor', contractorSubmitted, null, null, now)!;
    const contractorPart = forContractor.parts.filter((part) => part.id === 'contractor');
    expect(submissionOf({ contractor: 'Acme' }, contractorSubmitted, booth.approval, { parts: forContractor, sending: contractorPart }, 9, at).approval).toBe('keep');
    // A form of one part: the whole data is the submission.
    expect(submissionOf({ boothHeight: 2 }, null, booth.approval, null, 4, at)).toEqual({ submittedData: { boothHeight: 2 }, parts: null, approval: null });
  });
});

describe('who fills a form', () => {
  it('a contractor meets only the forms shared with it; organisers none', () => {
    expect(visibleToRole(booth, 'contractor')).toBe(true);
    expect(visibleToRole(company, 'contractor')).toBe(false);
    expect(visibleToRole(company, 'team_user')).toBe(true);
    expect(visibleToRole(company, 'organiser')).toBe(false);
  });
});
