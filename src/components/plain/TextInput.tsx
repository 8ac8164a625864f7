import { useId, type InputHTMLAttributes } from 'react';
import './plain.css';

interface TextInputProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'onChange'> {
  label: string;
  value: string;
  onChange: (value: string) => void;
  error?: string;
  help?: string;
}

/** A labelled input whose error is announced with it (aria-describedby, aria-invalid). */
export function TextInput({ label, value, onChange, error, help, ...rest }: TextInputProps) {
  const id = useId();
  const describedBy = error ? `${id}-error` : help ? `${id}-help` : undefined;
  return (
    <div className="plain-field">
      <label htmlFor={id}>{label}</label>
      <input id={id} value={value} onChange={(event) => onChange(event.target.value)} aria-invalid={error ? true : undefined} aria-describedby={describedBy} {...rest} />
      {error ? (
        <span id={`${id}-error`} className="plain-error">
          {error}
        </span>
      ) : help ? (
        <span id={`${id}-help`} className="plain-help">
          {help}
        </span>
      ) : null}
    </div>
  );
}
