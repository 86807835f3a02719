// A list's filter form: its fields live in the page's URL (#/payments?status=failed), so a filtered list
// can be reloaded and shared; submitting writes them there and the list follows.
import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { navigate } from '../router';

export interface FilterField {
  name: string;
  label: string;
  /** A select's choices; none: a text field. */
  options?: string[];
  /** The select's first choice, for no value (default "Any"), and how a choice reads (default: its words). */
  anyLabel?: string;
  optionLabel?: (value: string) => string;
  type?: 'text' | 'date';
}

export function FilterForm({ path, fields, query, children }: { path: string; fields: FilterField[]; query: URLSearchParams; children?: ComponentChildren }) {
  const [values, setValues] = useState<Record<string, string>>(() => Object.fromEntries(fields.map((field) => [field.name, query.get(field.name) ?? ''])));
  const set = (name: string, value: string) => setValues((current) => ({ ...current, [name]: value }));
  const submit = (event: Event) => {
    event.preventDefault();
    navigate(path, values);
  };
  return (
    <form class="filters" role="search" aria-label="Filters" onSubmit={submit}>
      {fields.map((field) => (
        <div class="field" key={field.name}>
          <label for={`filter-${field.name}`}>{field.label}</label>
          {field.options ? (
            <select id={`filter-${field.name}`} value={values[field.name]} onChange={(event) => set(field.name, (event.target as HTMLSelectElement).value)}>
              <option value="">{field.anyLabel ?? 'Any'}</option>
              {field.options.map((option) => (
                <option key={option} value={option}>
                  {field.optionLabel ? field.optionLabel(option) : option.replace(/_/g, ' ')}
                </option>
              ))}
            </select>
          ) : (
            <input
              id={`filter-${field.name}`}
              {...(field.type === 'date' ? { type: 'date' as const } : { type: 'text' as const })}
              value={values[field.name] ?? ''}
              onInput={(event) => set(field.name, (event.target as HTMLInputElement).value)}
            />
          )}
        </div>
      ))}
      {children}
      <div class="filter-actions">
        <button type="submit" class="button button-primary">
          Apply filters
        </button>
        <a class="button" href={`#${path}`} onClick={() => setValues(Object.fromEntries(fields.map((field) => [field.name, ''])))}>
          Clear
        </a>
      </div>
    </form>
  );
}

/** The query's non-empty values of the given names, as a list route's query parameters. */
export function filterValues(query: URLSearchParams, names: string[]): Record<string, string> {
  return Object.fromEntries(names.map((name) => [name, query.get(name) ?? '']).filter(([, value]) => value));
}
