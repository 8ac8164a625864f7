import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import en from '../../locales/en.json';
import { LimitTips } from './LimitTips';

// (src/app/test-utils.tsx is off limits here: components must not import the app layer.)
if (!i18next.isInitialized) {
  void i18next.use(initReactI18next).init({ resources: { en: { translation: en } }, lng: 'en', initAsync: false, interpolation: { escapeValue: false } });
}
afterEach(cleanup);

const EMAIL = 'exhibitor-support@afhe-expo.example';

describe('LimitTips', () => {
  it('P4: one item reached its limit: the single text, with a mailto link to the support e-mail', () => {
    render(<LimitTips count={1} email={EMAIL} />);
    const alert = screen.getByRole('alert');
    expect(alert.textContent).toBe(`This button is not displayed because the limit has been reached. Contact ${EMAIL} for more.`);
    const link = screen.getByRole('link', { name: EMAIL });
    expect(link.getAttribute('href')).toBe(`mailto:${EMAIL}`);
    expect(alert.contains(link)).toBe(true);
  });

  it('P4: several items reached their limits: the plural text, with the same link', () => {
    render(<LimitTips count={3} email={EMAIL} />);
    expect(screen.getByRole('alert').textContent).toBe(`Some buttons are not displayed because limits have been reached. Contact ${EMAIL} for more.`);
    expect(screen.getByRole('link', { name: EMAIL }).getAttribute('href')).toBe(`mailto:${EMAIL}`);
  });

  it('P4: the e-mail given is the one linked', () => {
    render(<LimitTips count={2} email="help@example.org" />);
    expect(screen.getByRole('link', { name: 'help@example.org' }).getAttribute('href')).toBe('mailto:help@example.org');
  });

  it('P4: nothing when no limit is reached', () => {
    const { container } = render(<LimitTips count={0} email={EMAIL} />);
    expect(container.innerHTML).toBe('');
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
