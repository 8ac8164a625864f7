import { describe, expect, it } from 'vitest';
import { modulesForRole } from './roles';

const exhibitorModules = ['Forms', 'Leadgrab', 'Leadgrab Dashboard', 'Custom Tag', 'Invite Your Clients', 'Manuals'];

describe('modules by role (spec §6, P1, LD5)', () => {
  it('gives the exhibitor every module of its participation', () => {
    expect(modulesForRole('exhibitor', exhibitorModules)).toEqual(exhibitorModules);
  });
  it('keeps only lead capture for a team user', () => {
    expect(modulesForRole('team_user', exhibitorModules)).toEqual(['Leadgrab', 'Leadgrab Dashboard']);
  });
  it('keeps only the forms for a contractor, and nothing the exhibitor lacks', () => {
    expect(modulesForRole('contractor', exhibitorModules)).toEqual(['Forms']);
    expect(modulesForRole('contractor', ['Manuals'])).toEqual([]);
  });
});
