import { useLocation } from 'react-router-dom';
import { findScreenByPath, type Screen } from '../../engine/catalogue';
import { catalogue } from '../../generated/screens';

/** The catalogue screen of the current address. */
export function useCurrentScreen(): Screen | undefined {
  return findScreenByPath(catalogue, useLocation().pathname);
}
