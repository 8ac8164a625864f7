import { formatEventTimeWithOffset } from '../engine/locale-format';
import { currentLanguage } from '../lib/i18n';

/** K2: a timestamp in event time, written in the user's language with the UTC offset. */
export function UtcTime({ value, offsetMinutes = 0, withTime = true }: { value: string | null | undefined; offsetMinutes?: number; withTime?: boolean }) {
  const text = formatEventTimeWithOffset(value, currentLanguage(), offsetMinutes, withTime);
  return value ? <time dateTime={value}>{text}</time> : <span>{text}</span>;
}
