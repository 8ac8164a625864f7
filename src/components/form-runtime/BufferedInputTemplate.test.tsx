import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import Form from '@rjsf/mui';
import type { RJSFSchema } from '@rjsf/utils';
import validator from '@rjsf/validator-ajv8';
import { BufferedInputTemplate } from './BufferedInputTemplate';

// A text input of a generated form shows each key at once and hands what was typed to rjsf after
// the frame showing it, and at once when the user leaves the field or presses Enter.

const schema: RJSFSchema = { type: 'object', properties: { name: { type: 'string', title: 'Name' } } };

function renderForm() {
  const changes: unknown[] = [];
  render(
    <Form
      schema={schema}
      validator={validator}
      templates={{ BaseInputTemplate: BufferedInputTemplate }}
      onChange={(event) => changes.push((event.formData as { name?: string }).name)}
    />,
  );
  // What rjsf reports as it mounts is not typing.
  act(() => vi.runAllTimers());
  changes.length = 0;
  return { input: screen.getByRole('textbox', { name: 'Name' }) as HTMLInputElement, changes };
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

describe('BufferedInputTemplate', () => {
  it('hands over at once when the user leaves the field, and not again after the frame', () => {
    const { input, changes } = renderForm();
    fireEvent.change(input, { target: { value: 'Wei' } });
    fireEvent.blur(input);
    expect(changes).toEqual(['Wei']);
    act(() => vi.advanceTimersByTime(500));
    expect(changes).toEqual(['Wei']);
    expect(input.value).toBe('Wei');
  });

  it('hands over at once on Enter (a submit sees everything typed)', () => {
    const { input, changes } = renderForm();
    fireEvent.change(input, { target: { value: 'Ravi' } });
    fireEvent.keyDown(input, { key: 'Enter' });
    expect(changes).toEqual(['Ravi']);
  });
});
