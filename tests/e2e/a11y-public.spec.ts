import { describe } from 'vitest';
import { axeWalkOfPublicScreens } from './support/axe-walk';

// Accessibility: axe-core over every public screen (nobody signed in), in English and Japanese.
describe('accessibility of the public screens', () => {
  axeWalkOfPublicScreens();
});
