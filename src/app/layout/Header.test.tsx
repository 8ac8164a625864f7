import { describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, within } from '@testing-library/react';
import { ACCOUNT, FULL_USER, LocationProbe, renderWithProviders, setupComponentTests } from '../test-utils';
import { Header } from './Header';

setupComponentTests();

function renderHeader(options: { modules?: string[]; hideAccountHome?: boolean; path?: string } = {}) {
  const account = { ...ACCOUNT, hideAccountHome: options.hideAccountHome ?? false };
  return renderWithProviders(
    <>
      <Header account={account} displayedModules={options.modules ?? FULL_USER.displayedModule} />
      <LocationProbe />
    </>,
    { path: options.path ?? '/orderForms', account },
  );
}

function openAccountMenu() {
  fireEvent.click(screen.getByRole('button', { name: 'Account' }));
  return screen.getByRole('menu');
}

describe('Header', () => {
  it('H1: shows the exhibition, the exhibitor, the booth and the company logo', () => {
    renderHeader();
    const banner = screen.getByRole('banner');
    expect(within(banner).getByText('ASEAN Food & Hospitality Expo 2027')).toBeTruthy();
    expect(within(banner).getByText('Borneo Botanica')).toBeTruthy();
    expect(within(banner).getByText(/Booth Hall 3 · B12/)).toBeTruthy();
    const logo = within(banner).getByRole('img', { name: 'Borneo Botanica logo' });
    expect(logo.getAttribute('src')).toBe('/demo/borneo-botanica-logo.svg');
    expect(within(banner).getByRole('button', { name: 'Log out' })).toBeTruthy();
  });

  it('H4: hideAccountHome false shows the Account Home link and the account-menu entry', () => {
    renderHeader({ hideAccountHome: false });
    expect(screen.getByRole('link', { name: 'Account Home' }).getAttribute('href')).toBe('/home');
    const menu = openAccountMenu();
    expect(within(menu).getByRole('menuitem', { name: 'Account Home' })).toBeTruthy();
    expect(within(menu).getByRole('menuitem', { name: 'My account' })).toBeTruthy();
  });

  it('H4: hideAccountHome true hides the Account Home link and the account-menu entry', () => {
    renderHeader({ hideAccountHome: true });
    expect(screen.queryByRole('link', { name: 'Account Home' })).toBeNull();
    const menu = openAccountMenu();
    expect(within(menu).queryByRole('menuitem', { name: 'Account Home' })).toBeNull();
    expect(within(menu).getByRole('menuitem', { name: 'My account' })).toBeTruthy();
  });

  it.each([
    [['Manuals'], true],
    [['Forms'], true],
    [['Forms', 'Support'], true],
    [['Support'], false],
    [['Event Info', 'Leadgrab'], false],
  ])('Y4: with modules %j the search box is shown: %s', (modules, shown) => {
    renderHeader({ modules });
    expect(screen.queryByRole('searchbox', { name: 'Search manuals and forms' }) !== null).toBe(shown);
  });

  it('Y4: typing a keyword and Enter goes to /search?keyword=…', () => {
    renderHeader({ modules: ['Forms'] });
    const box = screen.getByRole('searchbox', { name: 'Search manuals and forms' });
    fireEvent.change(box, { target: { value: '  booth height ' } });
    fireEvent.keyDown(box, { key: 'a' });
    expect(screen.getByTestId('location').textContent).toBe('/orderForms');
    fireEvent.keyDown(box, { key: 'Enter' });
    expect(screen.getByTestId('location').textContent).toBe('/search?keyword=booth%20height');
  });

  it('Y4: Enter in an empty search box stays on the page', () => {
    renderHeader({ modules: ['Forms'] });
    const box = screen.getByRole('searchbox', { name: 'Search manuals and forms' });
    fireEvent.change(box, { target: { value: '   ' } });
    fireEvent.keyDown(box, { key: 'Enter' });
    expect(screen.getByTestId('location').textContent).toBe('/orderForms');
  });

  it('L1/L5: the language menu lists English, 中文, 日本語, Tiếng Việt, the current one selected', () => {
    renderHeader();
    const button = screen.getByRole('button', { name: 'Language: English' });
    expect(button.textContent).toBe('English');
    fireEvent.click(button);
    const items = within(screen.getByRole('menu')).getAllByRole('menuitem');
    expect(items.map((item) => item.textContent)).toEqual(['English', '中文', '日本語', 'Tiếng Việt']);
    expect(items.map((item) => item.getAttribute('lang'))).toEqual(['en', 'zh', 'ja', 'vi']);
    expect(items[0]!.classList.contains('Mui-selected')).toBe(true);
  });

  it('L1: choosing another language stores it and reloads the page', () => {
    const reload = vi.fn();
    const assign = vi.fn();
    vi.stubGlobal('location', { ...window.location, pathname: '/orderForms', search: '', reload, assign });
    renderHeader();
    fireEvent.click(screen.getByRole('button', { name: 'Language: English' }));
    fireEvent.click(screen.getByRole('menuitem', { name: '日本語' }));
    expect(localStorage.getItem('oem_language')).toBe('ja');
    expect(reload).toHaveBeenCalledTimes(1);
    expect(assign).not.toHaveBeenCalled();
  });
});
