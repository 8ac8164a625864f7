import { describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/react';
import { ACCOUNT, setupComponentTests } from '../test-utils';
import { Footer } from './Footer';

setupComponentTests();

describe('Footer', () => {
  it('Y6: a terms-of-use link to termsUrl, opening in a new tab', () => {
    render(<Footer termsUrl={ACCOUNT.termsUrl} organiser={ACCOUNT.exhibitName} />);
    const link = screen.getByRole('link', { name: 'Terms of use' });
    expect(link.getAttribute('href')).toBe('https://www.afhe-expo.example/terms-of-use');
    expect(link.getAttribute('target')).toBe('_blank');
    expect(link.getAttribute('rel')?.split(/\s+/)).toContain('noopener');
  });

  it('Y6: the copyright names the current year and the organiser', () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2031-06-15T12:00:00Z'));
    render(<Footer termsUrl={ACCOUNT.termsUrl} organiser={ACCOUNT.exhibitName} />);
    expect(screen.getByRole('contentinfo').textContent).toContain('© 2031 ASEAN Food & Hospitality Expo 2027. All rights reserved.');
  });

  it('Y6: without an organiser the portal name is used; without termsUrl there is no link', () => {
    render(<Footer />);
    expect(screen.getByText(`© ${new Date().getFullYear()} Exhibitor Portal. All rights reserved.`)).toBeTruthy();
    expect(screen.queryByRole('link')).toBeNull();
  });
});
