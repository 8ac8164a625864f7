import { describe, expect, it } from 'vitest';
import { fireEvent, screen } from '@testing-library/react';
import { Route, Routes } from 'react-router-dom';
import { findScreen } from '../../engine/catalogue';
import { catalogue } from '../../generated/screens';
import { renderWithProviders, setupComponentTests } from '../test-utils';
import { TitleBar } from './TitleBar';

setupComponentTests();

function screenById(id: string) {
  const found = findScreen(catalogue, id);
  if (!found) throw new Error(`no screen ${id}`);
  return found;
}

/** The title bar of screen `id` on every path but /orderForms and /home, which show markers. */
function renderTitleBar(id: string, path: string | string[]) {
  return renderWithProviders(
    <Routes>
      <Route path="/orderForms" element={<p>Order forms page</p>} />
      <Route path="/home" element={<p>Home page</p>} />
      <Route path="*" element={<TitleBar screen={screenById(id)} />} />
    </Routes>,
    { path },
  );
}

describe('TitleBar', () => {
  it('Y1: shows the title of the screen', () => {
    renderTitleBar('exhibitorBadges', '/myParticipation/exhibitorBadges');
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('S04 Exhibitor badges');
  });

  it('Y1: an orderName query replaces the title, its first word shown as a tag', () => {
    renderTitleBar('orderFormDetail', `/orderForms/detail?orderName=${encodeURIComponent('S04 Exhibitor badges')}`);
    const heading = screen.getByRole('heading', { level: 1 });
    expect(heading.textContent).not.toContain('Form detail');
    const tag = screen.getByText('S04');
    expect(tag.closest('.MuiChip-root')).not.toBeNull();
    expect(heading.contains(tag)).toBe(true);
    expect(heading.textContent).toContain('Exhibitor badges');
    // The rest of the name is plain text, not part of the tag.
    expect(tag.textContent).toBe('S04');
  });

  it('Y2: a back arrow for a screen nested below Forms (/myParticipation/promotionProfile)', () => {
    renderTitleBar('promotionProfile', '/myParticipation/promotionProfile');
    expect(screen.getByRole('button', { name: 'Back' })).toBeTruthy();
  });

  it('Y2: no back arrow on a top-level screen (/orderForms)', () => {
    renderWithProviders(<TitleBar screen={screenById('orderForms')} />, { path: '/orderForms' });
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Forms');
    expect(screen.queryByRole('button', { name: 'Back' })).toBeNull();
  });

  it('Y2: no back arrow under digital-tools, however deep (/digital-tools/team-user)', () => {
    renderTitleBar('teamUser', '/digital-tools/team-user');
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Team users');
    expect(screen.queryByRole('button', { name: 'Back' })).toBeNull();
  });

  it('Y2: with a token query, Back goes to /orderForms', () => {
    renderTitleBar('promotionProfile', ['/home', '/myParticipation/promotionProfile?token=x']);
    fireEvent.click(screen.getByRole('button', { name: 'Back' }));
    expect(screen.getByText('Order forms page')).toBeTruthy();
    expect(screen.queryByText('Home page')).toBeNull();
  });

  it('Y2: without a token query, Back goes one step back in history', () => {
    renderTitleBar('promotionProfile', ['/home', '/myParticipation/promotionProfile']);
    fireEvent.click(screen.getByRole('button', { name: 'Back' }));
    expect(screen.getByText('Home page')).toBeTruthy();
    expect(screen.queryByText('Order forms page')).toBeNull();
  });
});
