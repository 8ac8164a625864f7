import { formatUtcOffset } from '../engine/time';

/** K2: a timestamp in event time, written as UTC plus offset. */
export function UtcTime({ value, offsetMinutes = 0, withTime = true }: { value: string | null | undefined; offsetMinutes?: number; withTime?: boolean }) {
  const text = formatUtcOffset(value, offsetMinutes, withTime);
  return value ? <time dateTime={value}>{text}</time> : <span>{text}</span>;
}
