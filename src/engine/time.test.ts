import { describe, expect, it } from 'vitest';
import { eventDate, formatOffset, formatUtcOffset, fromEventClock, toEventClock } from './time';

const INSTANT = '2027-03-04T01:30:00Z';

describe('K2 formatOffset', () => {
  it('K2 writes positive, negative and zero offsets as UTC±HH:MM', () => {
    expect(formatOffset(480)).toBe('UTC+08:00');
    expect(formatOffset(-330)).toBe('UTC-05:30');
    expect(formatOffset(0)).toBe('UTC+00:00');
    expect(formatOffset(345)).toBe('UTC+05:45');
    expect(formatOffset(-720)).toBe('UTC-12:00');
  });
});

describe('K2 formatUtcOffset', () => {
  it('K2 shows the wall-clock time at +08:00', () => {
    expect(formatUtcOffset(INSTANT, 480)).toBe('2027-03-04 09:30 (UTC+08:00)');
  });

  it('K2 shows the wall-clock time at -05:30, crossing back to the previous day', () => {
    expect(formatUtcOffset(INSTANT, -330)).toBe('2027-03-03 20:00 (UTC-05:30)');
  });

  it('K2 shows UTC itself with offset 0, which is the default', () => {
    expect(formatUtcOffset(INSTANT, 0)).toBe('2027-03-04 01:30 (UTC+00:00)');
    expect(formatUtcOffset(INSTANT)).toBe('2027-03-04 01:30 (UTC+00:00)');
  });

  it('K2 crosses a year boundary forwards', () => {
    expect(formatUtcOffset('2026-12-31T20:05:00Z', 480)).toBe('2027-01-01 04:05 (UTC+08:00)');
  });

  it('K2 reads an input that carries its own offset as the same instant', () => {
    expect(formatUtcOffset('2027-03-04T09:30:00+08:00', 0)).toBe('2027-03-04 01:30 (UTC+00:00)');
  });

  it('K2 accepts epoch milliseconds and Date objects', () => {
    const ms = Date.UTC(2027, 2, 4, 1, 30);
    expect(formatUtcOffset(ms, 480)).toBe('2027-03-04 09:30 (UTC+08:00)');
    expect(formatUtcOffset(new Date(ms), -330)).toBe('2027-03-03 20:00 (UTC-05:30)');
    expect(formatUtcOffset(0, 0)).toBe('1970-01-01 00:00 (UTC+00:00)');
  });

  it('K2 can leave the time out', () => {
    expect(formatUtcOffset(INSTANT, 480, false)).toBe('2027-03-04 (UTC+08:00)');
    expect(formatUtcOffset(INSTANT, -330, false)).toBe('2027-03-03 (UTC-05:30)');
  });

  it('K2 shows a dash for empty or invalid input', () => {
    expect(formatUtcOffset(null)).toBe('-');
    expect(formatUtcOffset(undefined, 480)).toBe('-');
    expect(formatUtcOffset('', 480)).toBe('-');
    expect(formatUtcOffset('not a date', 480)).toBe('-');
    expect(formatUtcOffset(Number.NaN, 0)).toBe('-');
    expect(formatUtcOffset(new Date('garbage'), 0)).toBe('-');
  });
});

describe('event time (K2): one rule', () => {
  it('shifts an instant to the event wall clock and back', () => {
    const instant = new Date('2027-03-03T17:30:00Z');
    expect(toEventClock(instant, 480).toISOString()).toBe('2027-03-04T01:30:00.000Z');
    expect(fromEventClock(toEventClock(instant, 480), 480).toISOString()).toBe(instant.toISOString());
    expect(toEventClock(instant, -300).toISOString()).toBe('2027-03-03T12:30:00.000Z');
  });

  it('gives the calendar day at the event, which may differ from the UTC day', () => {
    expect(eventDate('2027-03-03T17:30:00Z', 480)).toBe('2027-03-04');
    expect(eventDate('2027-03-03T17:30:00Z', 0)).toBe('2027-03-03');
    expect(eventDate('2027-03-04T02:00:00Z', -300)).toBe('2027-03-03');
  });
});
