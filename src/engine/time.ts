// K2: timestamps are shown in UTC plus an offset, e.g. "2027-03-04 09:30 (UTC+08:00)".

function pad(value: number): string {
  return String(value).padStart(2, '0');
}

export function formatOffset(offsetMinutes: number): string {
  const sign = offsetMinutes < 0 ? '-' : '+';
  const abs = Math.abs(offsetMinutes);
  return `UTC${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}

/** Shows an instant as wall-clock time at the given offset, with the offset written out. */
export function formatUtcOffset(
  instant: string | number | Date | null | undefined,
  offsetMinutes = 0,
  withTime = true,
): string {
  if (instant === null || instant === undefined || instant === '') return '-';
  const date = instant instanceof Date ? instant : new Date(instant);
  if (Number.isNaN(date.getTime())) return '-';
  const shifted = new Date(date.getTime() + offsetMinutes * 60_000);
  const day = `${shifted.getUTCFullYear()}-${pad(shifted.getUTCMonth() + 1)}-${pad(shifted.getUTCDate())}`;
  const clock = withTime ? ` ${pad(shifted.getUTCHours())}:${pad(shifted.getUTCMinutes())}` : '';
  return `${day}${clock} (${formatOffset(offsetMinutes)})`;
}
