import type { DateLocale } from '../engine/locale-format';
import { currentLanguage } from './i18n';
import { useAccountInfo } from './session';

/**
 * K2: how the signed-in user's pages write dates: words and month names in the user's language,
 * day, month and year in the order the user's event writes them (its setting, in account info).
 */
export function useDateLocale(): DateLocale {
  const { data } = useAccountInfo();
  return { language: currentLanguage(), dateOrder: data?.dateOrder };
}
