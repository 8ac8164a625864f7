import { describe, expect, it } from 'vitest';
import { exhibitorProblems, newExhibitorInput } from './organiser-exhibitors';

// O2: a new exhibitor (the organiser's form and the import alike) starts from the event's defaults.

const vocabulary = { modules: ['Forms', 'Leadgrab'], flags: ['s01CompanyShow', 'productSecondLanguage'], deadlineNames: ['badges'], quotaNames: ['badges'] };

describe('O2 newExhibitorInput', () => {
  it("takes the event's default modules and flags as copies, and no quota or deadline of its own", () => {
    const defaults = { modules: ['Forms'], flags: { s01CompanyShow: true } };
    const input = newExhibitorInput(defaults);
    expect(input).toMatchObject({ modules: ['Forms'], flags: { s01CompanyShow: true }, quotas: {}, deadlines: {} });
    input.modules.push('Leadgrab');
    input.flags.productSecondLanguage = true;
    expect(defaults).toEqual({ modules: ['Forms'], flags: { s01CompanyShow: true } });
  });

  it('is refused until its code, name, account and e-mail are filled in; then accepted', () => {
    const input = newExhibitorInput({ modules: ['Forms'], flags: {} });
    expect(Object.keys(exhibitorProblems(input, vocabulary, null)).sort()).toEqual(['account', 'code', 'email', 'name']);
    const filled = { ...input, code: 'BB-01', name: 'Borneo Botanica', account: 'borneo', email: 'sales@borneo-botanica.example' };
    expect(exhibitorProblems(filled, vocabulary, null)).toEqual({});
  });

  it('takes a logo the portal serves or a web address, as an event does; never another host by a trick', () => {
    const filled = { ...newExhibitorInput({ modules: ['Forms'], flags: {} }), code: 'KOPI', name: 'Kopi Nusantara', account: 'kopi', email: 'kopi@kopi.example' };
    for (const logoUrl of ['/demo/kopi-nusantara-logo.svg', 'https://kopi.example/logo.png', '']) {
      expect(exhibitorProblems({ ...filled, logoUrl }, vocabulary, null)).toEqual({});
    }
    for (const logoUrl of ['//evil.example/logo.png', '/\\evil.example/logo.png', 'javascript:alert(1)', 'demo/logo.svg']) {
      expect(exhibitorProblems({ ...filled, logoUrl }, vocabulary, null)).toEqual({ logoUrl: 'organiser.validation.url' });
    }
  });
});
