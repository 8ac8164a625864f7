import { describe } from 'vitest';
import { axeWalkOf } from './support/axe-walk';

// Accessibility: axe-core over every screen the contractor may open, in English and Japanese.
describe('accessibility as the contractor (demo/builder)', () => {
  axeWalkOf('demo/builder', 'contractor');
});
