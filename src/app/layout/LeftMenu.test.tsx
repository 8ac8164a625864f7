import { describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import i18next from 'i18next';
import { buildMenu } from '../../engine/catalogue';
import { catalogue } from '../../generated/screens';
import { ACCOUNT, FULL_USER, LIMITED_USER, renderWithProviders, setupComponentTests } from '../test-utils';
import { LeftMenu } from './LeftMenu';

setupComponentTests();

const t = (key: string) => i18next.t(key);

function renderMenu(modules: string[], path = '/orderForms', logo: { eventLog?: string; eventUrl?: string } = { eventLog: ACCOUNT.eventLog, eventUrl: ACCOUNT.eventUrl }) {
  renderWithProviders(<LeftMenu items={buildMenu(catalogue, modules, t, 'exhibitor')} eventName={ACCOUNT.exhibitName} {...logo} />, { path });
  return screen.getByRole('navigation', { name: 'Main menu' });
}

/** The labels of the entries directly in `list` (not those nested below them). */
function topLabels(list: HTMLElement): string[] {
  return [...list.children].map((li) => li.querySelector('a')?.textContent ?? '');
}

describe('LeftMenu', () => {
  it('P3: the full user sees every permitted, non-hidden main screen, in catalogue order', () => {
    const nav = renderMenu(FULL_USER.displayedModule);
    const list = within(nav).getAllByRole('list')[0]!;
    expect(topLabels(list)).toEqual(['Dashboard', 'Event Platform', 'Mandatory Forms', 'Optional Manuals', 'LeadGrab', 'Event Support', 'Invite your clients']);
    // Hidden screens are not in the menu.
    for (const hidden of ['Account Home', 'S01 Promotion profile', 'Promotion Profile', 'Form detail', 'Announcement', 'Search', 'My account']) {
      expect(within(nav).queryByRole('link', { name: hidden })).toBeNull();
    }
  });

  it('P3: children are nested under their parent entry, with their paths', () => {
    const nav = renderMenu(FULL_USER.displayedModule);
    const leadGrab = within(nav).getByRole('link', { name: 'LeadGrab' });
    expect(leadGrab.getAttribute('href')).toBe('/digital-tools');
    const group = leadGrab.closest('li')!;
    const children = within(group).getAllByRole('list')[0]!;
    expect(topLabels(children)).toEqual([
      'Introduction',
      'Leads',
      'Scanner',
      'Team users',
      'Lead report',
      'Scanning devices',
      'Custom tags',
      'Integrations',
      'API keys',
      'Digital showroom',
    ]);
    expect(within(children).getByRole('link', { name: 'Team users' }).getAttribute('href')).toBe('/digital-tools/team-user');
    const support = within(nav).getByRole('link', { name: 'Event Support' }).closest('li')!;
    expect(within(support).getByRole('link', { name: 'FAQ' }).getAttribute('href')).toBe('/faq');
    // FAQ is not a top-level entry.
    expect(within(group).queryByRole('link', { name: 'FAQ' })).toBeNull();
  });

  it('P3: the limited user (Forms, Support) sees exactly Mandatory Forms and Event Support (with FAQ)', () => {
    const nav = renderMenu(LIMITED_USER.displayedModule);
    const list = within(nav).getAllByRole('list')[0]!;
    expect(topLabels(list)).toEqual(['Mandatory Forms', 'Event Support']);
    expect(
      within(list)
        .getAllByRole('link')
        .map((a) => a.textContent),
    ).toEqual(['Mandatory Forms', 'Event Support', 'FAQ']);
  });

  it('P3: the entry of the current path is marked current', () => {
    const nav = renderMenu(FULL_USER.displayedModule, '/digital-tools/team-user');
    expect(within(nav).getByRole('link', { name: 'Team users' }).getAttribute('aria-current')).toBe('page');
    expect(within(nav).getByRole('link', { name: 'Dashboard' }).getAttribute('aria-current')).toBeNull();
  });

  it('Y5: the footer logo opens the event website in a new tab', () => {
    const nav = renderMenu(FULL_USER.displayedModule);
    const link = within(nav).getByRole('link', { name: 'Open the event website' });
    expect(link.getAttribute('href')).toBe(ACCOUNT.eventUrl);
    expect(link.getAttribute('target')).toBe('_blank');
    expect(link.getAttribute('rel')?.split(/\s+/)).toContain('noopener');
    const logo = within(link).getByRole('img');
    expect(logo.getAttribute('src')).toBe(ACCOUNT.eventLog);
    expect(logo.getAttribute('alt')).toBe('ASEAN Food & Hospitality Expo 2027 logo');
  });

  it('Y5: without an event logo there is no footer link', () => {
    const nav = renderMenu(FULL_USER.displayedModule, '/orderForms', {});
    expect(within(nav).queryByRole('link', { name: 'Open the event website' })).toBeNull();
  });
});
