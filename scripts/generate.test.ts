import { describe, expect, it, vi } from 'vitest';
import { FormSetProblemsError } from './api-types';
import { generatedFiles } from './generate';

// The API types are read from the app, which does not start on forms with problems: `npm run
// generate` and `npm run check` then list the problems (file, JSON pointer, message), with no
// stack trace of the app's start.

vi.mock('./api-types', async (original) => ({
  ...(await original<typeof import('./api-types')>()),
  withBuiltApp: async () => {
    const { FormSetProblemsError: Problems } = await original<typeof import('./api-types')>();
    throw new Problems(['forms/forms.yaml /forms/0/deadline: must be one of badges, booth, product, profile (the names under /deadlines)']);
  },
}));

describe('generate with forms that have problems', () => {
  it('answers the problems as a list instead of throwing', async () => {
    const { files, problems } = await generatedFiles();
    expect(files).toEqual({});
    expect(problems).toEqual([
      'the API types need the app, which does not start on forms with problems:',
      'forms/forms.yaml /forms/0/deadline: must be one of badges, booth, product, profile (the names under /deadlines)',
    ]);
  });

  it('the error lists each problem on its own line', () => {
    expect(new FormSetProblemsError(['a.yaml /x: wrong', 'b.json /y: wrong']).message).toBe('The forms have problems:\n  - a.yaml /x: wrong\n  - b.json /y: wrong');
  });
});
