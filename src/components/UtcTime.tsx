import { formatEventTimeWithOffset } from '../engine/locale-format';
import { currentLanguage } from '../lib/i18n';
import { useAccountInfo } from '../lib/session';

/**
 * K2: a timestamp in event time, written in the user's language with the UTC offset, day and
 * month in the event's order: the signed-in event's unless `dateOrder` names another event's.
 */
export function UtcTime({
  value,
  offsetMinutes = 0,
  withTime = true,
  dateOrder,
}: {
  value: string | null | undefined;
  offsetMinutes?: number;
  withTime?: boolean;
  dateOrder?: string;
}) {
  const { data: account } = useAccountInfo();
  const text = formatEventTimeWithOffset(value, { language: currentLanguage(), dateOrder: dateOrder ?? account?.dateOrder }, offsetMinutes, withTime);
  return value ? <time dateTime={value}>{text}</time> : <span>{text}</span>;
}
