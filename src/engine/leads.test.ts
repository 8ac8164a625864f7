import { describe, expect, it } from 'vitest';
import { eventDay, eventHour, formatEventDay, formatEventHour } from './leads';

describe('event time buckets (LA2)', () => {
  it('puts a scan at 23:30 UTC into the next day at UTC+08:00', () => {
    const hour = eventHour('2027-03-04T23:30:00Z', 480);
    expect(formatEventHour(hour)).toBe('2027-03-05 07:00');
    expect(formatEventDay(eventDay(hour))).toBe('2027-03-05');
  });
  it('keeps the UTC day at offset 0 and goes back a day at a negative offset', () => {
    expect(formatEventDay(eventDay(eventHour('2027-03-04T02:00:00Z', 0)))).toBe('2027-03-04');
    expect(formatEventDay(eventDay(eventHour('2027-03-04T02:00:00Z', -300)))).toBe('2027-03-03');
  });
  it('rounds half-hour offsets down to the hour they fall in', () => {
    expect(formatEventHour(eventHour('2027-03-04T10:15:00Z', 330))).toBe('2027-03-04 15:00');
  });
});
