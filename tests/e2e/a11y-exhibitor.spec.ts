import { describe } from 'vitest';
import { axeWalkOf } from './support/axe-walk';

// Accessibility: axe-core over every screen the exhibitor may open, in English and Japanese.
describe('accessibility as the exhibitor (demo)', () => {
  axeWalkOf('demo', 'exhibitor');
});
