// K1: amounts are held in whole hundredths; anything not a number shows as a dash.

export const MONEY_PLACEHOLDER = '-';

export function toHundredths(value: unknown): number | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string' && value.trim() === '') return null;
  if (typeof value !== 'number' && typeof value !== 'string') return null;
  const number = Number(value);
  if (!Number.isFinite(number)) return null;
  return Math.round(number * 100);
}

export function formatMoney(value: unknown, currency?: string): string {
  const hundredths = toHundredths(value);
  if (hundredths === null) return MONEY_PLACEHOLDER;
  const sign = hundredths < 0 ? '-' : '';
  const abs = Math.abs(hundredths);
  const whole = Math.floor(abs / 100)
    .toString()
    .replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  const text = `${sign}${whole}.${String(abs % 100).padStart(2, '0')}`;
  return currency ? `${currency}${text}` : text;
}
