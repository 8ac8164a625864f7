import { describe, expect, it } from 'vitest';
import { OTHER_KEY, checkRecipients, inEnumOrder, invitationFailureOf, isValidEmail, leaderboard, shareLinks, topWithOther, trendPoints, TREND_HOURS_MAX } from './analytics';
import { eventHour } from './leads';

describe('LA3 breakdowns', () => {
  it('top N with the rest as other, zeros dropped', () => {
    const counts = [
      { key: 'MY', leads: 5 },
      { key: 'SG', leads: 3 },
      { key: 'ID', leads: 2 },
      { key: 'TH', leads: 1 },
      { key: 'VN', leads: 0 },
    ];
    expect(topWithOther(counts, 2)).toEqual([{ key: 'MY', leads: 5 }, { key: 'SG', leads: 3 }, { key: OTHER_KEY, leads: 3 }]);
    expect(topWithOther(counts, 10)).toHaveLength(4);
  });
  it('enumerations in their order, unset last', () => {
    expect(inEnumOrder([{ key: 'hot', leads: 2 }, { key: '', leads: 1 }], ['cold', 'warm', 'hot'])).toEqual([
      { key: 'cold', leads: 0 },
      { key: 'warm', leads: 0 },
      { key: 'hot', leads: 2 },
      { key: '', leads: 1 },
    ]);
  });
});

describe('LA4 leaderboard', () => {
  it('dense ranks, ties in name order, no one without leads', () => {
    const rows = leaderboard([
      { userId: 1, name: 'Bea', leads: 3 },
      { userId: 2, name: 'Ali', leads: 3 },
      { userId: 3, name: 'Cai', leads: 1 },
      { userId: 4, name: 'Dan', leads: 0 },
    ]);
    expect(rows.map((r) => [r.rank, r.name])).toEqual([[1, 'Ali'], [1, 'Bea'], [2, 'Cai']]);
  });
});

describe('LA2 trends in event time', () => {
  it('daily buckets follow the event offset, zeros filled between days', () => {
    // 15:59 UTC and 16:00 UTC are 23:59 and 00:00 at UTC+08:00: two event days.
    const before = eventHour('2027-03-03T15:59:00Z', 480);
    const after = eventHour('2027-03-03T16:00:00Z', 480);
    const later = eventHour('2027-03-06T02:00:00Z', 480);
    const points = trendPoints([{ hour: before, leads: 2 }, { hour: after, leads: 3 }, { hour: later, leads: 1 }], 'day');
    expect(points.map((p) => [p.label, p.leads])).toEqual([['2027-03-03', 2], ['2027-03-04', 3], ['2027-03-05', 0], ['2027-03-06', 1]]);
  });
  it('hourly buckets are labelled in event time and capped to the latest hours', () => {
    const hour = eventHour('2027-03-04T01:30:00Z', 480);
    expect(trendPoints([{ hour, leads: 4 }], 'hour')).toEqual([{ bucket: hour, label: '2027-03-04 09:00', leads: 4 }]);
    expect(trendPoints([{ hour: 0, leads: 1 }, { hour: 10_000, leads: 1 }], 'hour')).toHaveLength(TREND_HOURS_MAX);
  });
});

describe('LA5 invitations', () => {
  it('V1 e-mails: valid, invalid, full-width', () => {
    expect(isValidEmail('client@example.com')).toBe(true);
    expect(isValidEmail('client@example')).toBe(false);
    expect(isValidEmail('ｃlient@example.com')).toBe(false);
  });
  it('recipients: required, valid, not twice', () => {
    expect(checkRecipients([{ name: 'A', email: 'a@example.com' }])).toEqual([]);
    expect(checkRecipients([{ name: '', email: 'a＠example.com' }, { name: 'B', email: 'nope' }, { name: 'C', email: 'c@x.com' }, { name: 'D', email: 'C@x.com' }])).toEqual([
      { index: 0, field: 'name', key: 'validation.required', params: {} },
      { index: 0, field: 'email', key: 'validation.noFullWidth', params: {} },
      { index: 1, field: 'email', key: 'validation.email', params: {} },
      { index: 3, field: 'email', key: 'invitations.duplicateEmail', params: { value: 'C@x.com' } },
    ]);
  });
  it('share links carry the event address and the text', () => {
    const links = shareLinks('https://expo.example/afhe?x=1', 'Visit us at booth B12', 'Invitation');
    expect(links.linkedin).toBe('https://www.linkedin.com/sharing/share-offsite/?url=https%3A%2F%2Fexpo.example%2Fafhe%3Fx%3D1');
    expect(links.x).toContain('text=Visit%20us%20at%20booth%20B12');
    expect(links.whatsapp).toBe(`https://wa.me/?text=${encodeURIComponent('Visit us at booth B12 https://expo.example/afhe?x=1')}`);
    expect(links.email.startsWith('mailto:?subject=Invitation&body=')).toBe(true);
    expect(links.facebook).toContain('u=https%3A%2F%2Fexpo.example');
  });
  it('failure reasons from nodemailer errors', () => {
    expect(invitationFailureOf(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ESOCKET' }))).toBe('unreachable');
    expect(invitationFailureOf({ code: 'EENVELOPE', responseCode: 550, command: 'RCPT TO' })).toBe('recipientRejected');
    expect(invitationFailureOf({ code: 'EMESSAGE', responseCode: 554, command: 'DATA' })).toBe('refused');
    expect(invitationFailureOf({ code: 'TIMEOUT' })).toBe('timeout');
    expect(invitationFailureOf(new Error('?'))).toBe('unknown');
  });
});
