import { describe } from 'vitest';
import { axeWalkOf } from './support/axe-walk';

// Accessibility: axe-core over every screen the organiser may open, in English and Japanese.
describe('accessibility as the organiser (organiser)', () => {
  axeWalkOf('organiser', 'organiser');
});
