import { useLocation } from 'react-router-dom';
import { findScreenByPath, type Screen } from '../../engine/catalogue';
import { useCatalogue } from '../../lib/catalogue';

/** The catalogue screen of the current address. */
export function useCurrentScreen(): Screen | undefined {
  return findScreenByPath(useCatalogue(), useLocation().pathname);
}
