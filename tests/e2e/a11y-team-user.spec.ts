import { describe } from 'vitest';
import { axeWalkOf } from './support/axe-walk';

// Accessibility: axe-core over every screen the team user may open, in English and Japanese.
describe('accessibility as the team user (demo/scanner)', () => {
  axeWalkOf('demo/scanner', 'team_user');
});
