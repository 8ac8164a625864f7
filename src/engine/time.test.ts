import { describe, expect, it } from 'vitest';
import { eventDate, formatOffset, fromEventClock, toEventClock } from './time';

describe('K2 formatOffset', () => {
  it('K2 writes positive, negative and zero offsets as UTC±HH:MM', () => {
    expect(formatOffset(480)).toBe('UTC+08:00');
    expect(formatOffset(-330)).toBe('UTC-05:30');
    expect(formatOffset(0)).toBe('UTC+00:00');
    expect(formatOffset(345)).toBe('UTC+05:45');
    expect(formatOffset(-720)).toBe('UTC-12:00');
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
