import { describe, expect, it } from 'vitest';
import { formatMoney, MONEY_PLACEHOLDER, toHundredths } from './money';

describe('K1 toHundredths', () => {
  it('K1 multiplies by 100 and rounds to a whole number', () => {
    expect(toHundredths(10)).toBe(1000);
    expect(toHundredths(12.34)).toBe(1234);
    expect(toHundredths(0.1 + 0.2)).toBe(30);
    expect(toHundredths(1.236)).toBe(124);
    expect(toHundredths(1.234)).toBe(123);
    expect(toHundredths(0)).toBe(0);
    expect(toHundredths(-3.5)).toBe(-350);
  });

  it('K1 accepts numeric strings, with surrounding spaces', () => {
    expect(toHundredths('10.00')).toBe(1000);
    expect(toHundredths(' 7.5 ')).toBe(750);
    expect(toHundredths('-0.01')).toBe(-1);
  });

  it('K1 gives null for empty or non-numeric values', () => {
    for (const value of [null, undefined, '', '   ', 'abc', '12abc', Number.NaN, Number.POSITIVE_INFINITY, 'Infinity', true, {}, [], [5]]) {
      expect(toHundredths(value)).toBeNull();
    }
  });
});

describe('K1 formatMoney', () => {
  it('K1 shows two decimals', () => {
    expect(formatMoney(10)).toBe('10.00');
    expect(formatMoney('10')).toBe('10.00');
    expect(formatMoney(0.5)).toBe('0.50');
    expect(formatMoney(0.07)).toBe('0.07');
    expect(formatMoney(0)).toBe('0.00');
  });

  it('K1 rounds to the nearest hundredth', () => {
    expect(formatMoney(9.999)).toBe('10.00');
    expect(formatMoney(1.234)).toBe('1.23');
  });

  it('K1 groups thousands with commas', () => {
    expect(formatMoney(1234.5)).toBe('1,234.50');
    expect(formatMoney(1234567.891)).toBe('1,234,567.89');
    expect(formatMoney(999.99)).toBe('999.99');
    expect(formatMoney(100000)).toBe('100,000.00');
  });

  it('K1 keeps the sign of negative amounts', () => {
    expect(formatMoney(-1234.5)).toBe('-1,234.50');
    expect(formatMoney(-0.01)).toBe('-0.01');
  });

  it('K1 puts the currency in front (MYR10.00 per additional badge)', () => {
    expect(formatMoney('10.00', 'MYR')).toBe('MYR10.00');
    expect(formatMoney(2500, 'MYR')).toBe('MYR2,500.00');
  });

  it('K1 shows a dash for empty or non-numeric values, even with a currency', () => {
    expect(MONEY_PLACEHOLDER).toBe('-');
    expect(formatMoney(null)).toBe('-');
    expect(formatMoney(undefined)).toBe('-');
    expect(formatMoney('')).toBe('-');
    expect(formatMoney('n/a', 'MYR')).toBe('-');
    expect(formatMoney(Number.NaN)).toBe('-');
  });
});
