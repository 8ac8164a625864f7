import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import en from '../../locales/en.json';
import { Pagination, scrollToTop } from './Pagination';

// (src/app/test-utils.tsx is off limits here: components must not import the app layer.)
if (!i18next.isInitialized) {
  void i18next.use(initReactI18next).init({ resources: { en: { translation: en } }, lng: 'en', initAsync: false, interpolation: { escapeValue: false } });
}

beforeEach(() => {
  vi.stubGlobal('innerWidth', 1280);
  vi.stubGlobal('scrollY', 0);
  vi.stubGlobal('scrollTo', vi.fn());
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

function renderPagination(props: { total?: number; page?: number; limit?: number; totalKind?: 'exact' | 'about' | 'moreThan' } = {}) {
  const onChange = vi.fn();
  const view = render(<Pagination total={props.total ?? 95} page={props.page ?? 1} limit={props.limit ?? 10} totalKind={props.totalKind} onChange={onChange} />);
  return { ...view, onChange };
}

/** The numbered page buttons, as numbers. */
function pagerNumbers(): number[] {
  return screen.getAllByRole('button', { name: /^Page \d+$/ }).map((button) => Number(button.textContent));
}

describe('Pagination', () => {
  it('Y8: shows the total', () => {
    renderPagination({ total: 95 });
    expect(screen.getByRole('navigation', { name: 'Pagination' })).toBeTruthy();
    expect(screen.getByText('Total 95')).toBeTruthy();
  });

  it('an estimated total reads "About", a capped one "More than", and the pager still reaches its last page', () => {
    renderPagination({ total: 5102, totalKind: 'about', limit: 20 });
    expect(screen.getByText('About 5,102')).toBeTruthy();
    expect(pagerNumbers()).toContain(256);
    cleanup();
    renderPagination({ total: 1000, totalKind: 'moreThan', limit: 20 });
    expect(screen.getByText('More than 1,000')).toBeTruthy();
    expect(pagerNumbers()).toContain(50);
  });

  it('Y8: the page size select shows the current size and offers 10, 20, 30 and 50 per page', () => {
    renderPagination({ limit: 20 });
    const select = screen.getByRole('combobox', { name: 'Page size' });
    expect(select.textContent).toBe('20 / page');
    fireEvent.mouseDown(select);
    const options = within(screen.getByRole('listbox')).getAllByRole('option');
    expect(options.map((option) => option.textContent)).toEqual(['10 / page', '20 / page', '30 / page', '50 / page']);
  });

  it('Y8: 7 numbered pager items at 992 px and wider, 5 below (following window resizes)', () => {
    vi.stubGlobal('innerWidth', 992);
    renderPagination({ total: 95, page: 1, limit: 10 });
    expect(pagerNumbers()).toEqual([1, 2, 3, 4, 5, 6, 10]);
    act(() => {
      vi.stubGlobal('innerWidth', 991);
      window.dispatchEvent(new Event('resize'));
    });
    expect(pagerNumbers()).toEqual([1, 2, 3, 4, 10]);
    act(() => {
      vi.stubGlobal('innerWidth', 1440);
      window.dispatchEvent(new Event('resize'));
    });
    expect(pagerNumbers()).toHaveLength(7);
  });

  it('Y8: the current page is marked; Previous is disabled on page 1, Next on the last page', () => {
    const { rerender, onChange } = renderPagination({ page: 1 });
    expect(screen.getByRole('button', { name: 'Page 1' }).getAttribute('aria-current')).toBe('page');
    expect((screen.getByRole('button', { name: 'Previous page' }) as HTMLButtonElement).disabled).toBe(true);
    rerender(<Pagination total={95} page={10} limit={10} onChange={onChange} />);
    expect((screen.getByRole('button', { name: 'Next page' }) as HTMLButtonElement).disabled).toBe(true);
    expect((screen.getByRole('button', { name: 'Previous page' }) as HTMLButtonElement).disabled).toBe(false);
  });

  it('Y8: "Next page" asks for page + 1, "Previous page" for page − 1, a number for that page', () => {
    const { onChange } = renderPagination({ page: 4, limit: 10 });
    fireEvent.click(screen.getByRole('button', { name: 'Next page' }));
    expect(onChange).toHaveBeenLastCalledWith({ page: 5, limit: 10 });
    fireEvent.click(screen.getByRole('button', { name: 'Previous page' }));
    expect(onChange).toHaveBeenLastCalledWith({ page: 3, limit: 10 });
    fireEvent.click(screen.getByRole('button', { name: 'Page 10' }));
    expect(onChange).toHaveBeenLastCalledWith({ page: 10, limit: 10 });
    onChange.mockClear();
    fireEvent.click(screen.getByRole('button', { name: 'Page 4' }));
    expect(onChange).not.toHaveBeenCalled();
  });

  it('Y8: "Go to page" + Enter jumps to that page (a page past the end goes to the last page)', () => {
    const { onChange } = renderPagination({ page: 1, limit: 10 });
    const field = screen.getByRole('textbox', { name: 'Go to page' }) as HTMLInputElement;
    fireEvent.change(field, { target: { value: '7' } });
    expect(onChange).not.toHaveBeenCalled();
    fireEvent.keyDown(field, { key: 'Enter' });
    expect(onChange).toHaveBeenLastCalledWith({ page: 7, limit: 10 });
    expect(field.value).toBe('');
    fireEvent.change(field, { target: { value: '4x2' } });
    expect(field.value).toBe('42');
    fireEvent.keyDown(field, { key: 'Enter' });
    expect(onChange).toHaveBeenLastCalledWith({ page: 10, limit: 10 });
  });

  it('Y8: a new page size where page × size exceeds the total resets to page 1 (page 5 of 95, size 50)', () => {
    const { onChange } = renderPagination({ total: 95, page: 5, limit: 10 });
    fireEvent.mouseDown(screen.getByRole('combobox', { name: 'Page size' }));
    fireEvent.click(screen.getByRole('option', { name: '50 / page' }));
    expect(onChange).toHaveBeenLastCalledWith({ page: 1, limit: 50 });
  });

  it('Y8: a new page size where page × size stays within the total keeps the page (page 3 of 95, size 30)', () => {
    const { onChange } = renderPagination({ total: 95, page: 3, limit: 10 });
    fireEvent.mouseDown(screen.getByRole('combobox', { name: 'Page size' }));
    fireEvent.click(screen.getByRole('option', { name: '30 / page' }));
    expect(onChange).toHaveBeenLastCalledWith({ page: 3, limit: 30 });
  });

  it('Y7: after a page change the window scrolls to the top over 800 ms', () => {
    vi.useFakeTimers({ toFake: ['requestAnimationFrame', 'cancelAnimationFrame', 'performance', 'setTimeout', 'clearTimeout'] });
    vi.stubGlobal('scrollY', 1000);
    const scrollTo = vi.fn();
    vi.stubGlobal('scrollTo', scrollTo);
    renderPagination({ page: 1 });
    fireEvent.click(screen.getByRole('button', { name: 'Next page' }));
    const tops = () => scrollTo.mock.calls.map((call) => call[1] as number);

    act(() => vi.advanceTimersByTime(400));
    expect(tops().length).toBeGreaterThan(5);
    const halfway = tops().at(-1)!;
    expect(halfway).toBeGreaterThan(0);
    expect(halfway).toBeLessThan(1000);
    // Moving up all the time, never down.
    expect(tops()).toEqual([...tops()].sort((a, b) => b - a));

    act(() => vi.advanceTimersByTime(400 + 20));
    expect(tops().at(-1)).toBe(0);
    const calls = scrollTo.mock.calls.length;
    act(() => vi.advanceTimersByTime(500));
    expect(scrollTo.mock.calls.length).toBe(calls);
  });

  it('Y7: scrollToTop is still moving at 600 ms, at the top by 800 ms (plus one frame), then stops', () => {
    vi.useFakeTimers({ toFake: ['requestAnimationFrame', 'cancelAnimationFrame', 'performance'] });
    vi.stubGlobal('scrollY', 1000);
    const scrollTo = vi.fn();
    vi.stubGlobal('scrollTo', scrollTo);
    scrollToTop();
    vi.advanceTimersByTime(600);
    expect(scrollTo.mock.calls.at(-1)?.[1]).toBeGreaterThan(0);
    vi.advanceTimersByTime(200 + 16);
    expect(scrollTo.mock.calls.at(-1)).toEqual([0, 0]);
    const calls = scrollTo.mock.calls.length;
    vi.advanceTimersByTime(1000);
    expect(scrollTo.mock.calls.length).toBe(calls);
  });

  it('Y7: nothing to do when already at the top', () => {
    vi.useFakeTimers({ toFake: ['requestAnimationFrame', 'cancelAnimationFrame', 'performance'] });
    const scrollTo = vi.fn();
    vi.stubGlobal('scrollTo', scrollTo);
    renderPagination({ page: 1 });
    fireEvent.click(screen.getByRole('button', { name: 'Next page' }));
    vi.advanceTimersByTime(1000);
    expect(scrollTo).not.toHaveBeenCalled();
  });
});
