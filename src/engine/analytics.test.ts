import { describe, expect, it } from 'vitest';
import { OTHER_KEY, checkRecipients, inEnumOrder, invitationFailureOf, leaderboard, shareLinks, topWithOther, showTrend } from './analytics';
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
    expect(topWithOther(counts, 2)).toEqual([
      { key: 'MY', leads: 5 },
      { key: 'SG', leads: 3 },
      { key: OTHER_KEY, leads: 3 },
    ]);
    expect(topWithOther(counts, 10)).toHaveLength(4);
  });
  it('enumerations in their order, unset last', () => {
    expect(
      inEnumOrder(
        [
          { key: 'hot', leads: 2 },
          { key: '', leads: 1 },
        ],
        ['cold', 'warm', 'hot'],
      ),
    ).toEqual([
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
    expect(rows.map((r) => [r.rank, r.name])).toEqual([
      [1, 'Ali'],
      [1, 'Bea'],
      [2, 'Cai'],
    ]);
  });
});

describe('LA2 trends in event time', () => {
  const day = (date: string) => Date.parse(`${date}T00:00:00Z`) / 86_400_000;
  const show = { days: [{ day: day('2027-03-17'), opens: '10:00', closes: '18:00' }, { day: day('2027-03-18') }, { day: day('2027-03-19') }], today: day('2027-03-01') };

  it('LA2 daily: every show day (empty ones at 0) and every day between the first and the last day with leads, so days sit true to time; buckets follow the event offset', () => {
    // 15:59 UTC and 16:00 UTC are 23:59 and 00:00 at UTC+08:00: two event days.
    const before = eventHour('2027-03-16T15:59:00Z', 480);
    const after = eventHour('2027-03-16T16:00:00Z', 480);
    const long = eventHour('2027-02-01T02:00:00Z', 480);
    const trend = showTrend(
      [
        { hour: long, leads: 1 },
        { hour: before, leads: 2 },
        { hour: after, leads: 3 },
      ],
      'day',
      show,
    );
    // One point per day from 1 February to 19 March: the weeks without leads show as zeros, not as one step.
    expect(trend.points).toHaveLength(28 + 19);
    expect(trend.points.every((p, index) => index === 0 || p.bucket === trend.points[index - 1]!.bucket + 1)).toBe(true);
    expect(trend.points.filter((p) => p.leads > 0).map((p) => [p.label, p.leads])).toEqual([
      ['2027-02-01', 1],
      ['2027-03-16', 2],
      ['2027-03-17', 3],
    ]);
    expect(trend.points.slice(1, 3).map((p) => [p.label, p.leads])).toEqual([
      ['2027-02-02', 0],
      ['2027-02-03', 0],
    ]);
    expect(trend.points.slice(-2).map((p) => [p.label, p.leads])).toEqual([
      ['2027-03-18', 0],
      ['2027-03-19', 0],
    ]);
    expect(trend).toMatchObject({ showDays: ['2027-03-17', '2027-03-18', '2027-03-19'], day: null });
  });

  it('LA2 hourly: one show day from opening to closing, widened to hours with leads, labelled HH:00', () => {
    const early = eventHour('2027-03-17T00:30:00Z', 480); // 08:30 event time
    const late = eventHour('2027-03-18T12:10:00Z', 480); // 20:10 on the 18th
    const counts = [
      { hour: early, leads: 4 },
      { hour: late, leads: 2 },
    ];
    const chosen = showTrend(counts, 'hour', { ...show, chosenDay: day('2027-03-17') });
    expect(chosen.day).toBe('2027-03-17');
    expect(chosen.points.map((p) => p.label)).toEqual(['08:00', '09:00', '10:00', '11:00', '12:00', '13:00', '14:00', '15:00', '16:00', '17:00']);
    expect(chosen.points[0]).toMatchObject({ leads: 4, bucket: early });
    // No choice, not a show day today: the latest show day with leads; default hours 09-18.
    const latest = showTrend(counts, 'hour', show);
    expect(latest.day).toBe('2027-03-18');
    expect(latest.points.map((p) => p.label)).toEqual(['09:00', '10:00', '11:00', '12:00', '13:00', '14:00', '15:00', '16:00', '17:00', '18:00', '19:00', '20:00']);
    expect(latest.points.at(-1)!.leads).toBe(2);
    // During the show, today.
    expect(showTrend(counts, 'hour', { ...show, today: day('2027-03-19') }).day).toBe('2027-03-19');
  });
});

describe('LA5 invitations', () => {
  it('recipients: required, valid, not twice', () => {
    expect(checkRecipients([{ name: 'A', email: 'a@example.com' }])).toEqual([]);
    expect(
      checkRecipients([
        { name: '', email: 'a＠example.com' },
        { name: 'B', email: 'nope' },
        { name: 'C', email: 'c@x.com' },
        { name: 'D', email: 'C@x.com' },
      ]),
    ).toEqual([
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
