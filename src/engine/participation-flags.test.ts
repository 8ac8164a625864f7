import { describe, expect, it } from 'vitest';
import { flagGroups, flagsNamedBy, participationFlags, undeclaredFlagProblems } from './participation-flags';

// Spec §3: the flags about a form are what forms.yaml declares for it.

const forms = [
  { submitOnceFlag: 'aSubmitOnceOnly', sectionFlags: ['aCompanyShow'], languageFlag: 'profileSecondLanguage' },
  { submitOnceFlag: null, languageFlag: 'profileSecondLanguage' },
  { submitOnceFlag: 'bSubmitOnceOnly' },
];

describe('participation flags from the forms', () => {
  it('groups the portal’s feature flags and the forms’ declarations, each name once', () => {
    expect(flagGroups(forms)).toEqual({
      feature: ['eventShow', 'leadgrabShow', 'digitalShow', 'hideAccountHome', 'downloadPdf', 'countryRequired'],
      section: ['aCompanyShow'],
      language: ['profileSecondLanguage'],
      submitOnce: ['aSubmitOnceOnly', 'bSubmitOnceOnly'],
    });
    expect(participationFlags(forms).slice(-4)).toEqual(['aCompanyShow', 'profileSecondLanguage', 'aSubmitOnceOnly', 'bSubmitOnceOnly']);
  });

  it('finds the flags a schema names, with pointers, and reports those the form does not declare', () => {
    const schema = {
      requiredWhenShown: { company: 'aCompanyShow' },
      properties: { company: { showIf: 'aCompanyShow' }, goals: { showIf: 'aGoalShow' }, local: { secondLanguage: 'productSecondLanguage' }, c: { showIf: 'countryRequired' } },
    };
    expect(flagsNamedBy(schema).map((found) => found.path)).toEqual([
      '/requiredWhenShown/company',
      '/properties/company/showIf',
      '/properties/goals/showIf',
      '/properties/local/secondLanguage',
      '/properties/c/showIf',
    ]);
    expect(undeclaredFlagProblems(forms[0]!, schema, '/schema')).toEqual([
      { path: '/schema/properties/goals/showIf', message: 'the flag "aGoalShow" is not among the form\'s sectionFlags in forms.yaml' },
      { path: '/schema/properties/local/secondLanguage', message: 'the flag "productSecondLanguage" is not the form\'s languageFlag in forms.yaml' },
    ]);
  });
});
