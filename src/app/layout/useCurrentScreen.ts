import { useLocation } from 'react-router-dom';
import { findScreenByPath } from '../../engine/catalogue';
import type { Screen } from '../../engine/schemas/screen';
import { useCatalogue } from '../../lib/catalogue';

/** The catalogue screen of the current address. */
export function useCurrentScreen(): Screen | undefined {
  return findScreenByPath(useCatalogue(), useLocation().pathname);
}
