import { useEffect, useState, type FormEvent } from 'react';
import {
  buildBody,
  initialValues,
  parameterFields,
  type FieldSpec,
  type FormValues,
} from '../generate/form-fields';
import { loadOpenApi } from '../generate/openapi';
import { SchemaField } from '../generate/schema-field';
import { ErrorMessage } from './error-message';

interface Props {
  /** The service documenting the route, for the distributed gateway's per-service documents. */
  service: string;
  path: string;
  /** Parameters that are not filters (paging, tenancy). */
  skip: string[];
  current: Record<string, string>;
  onApply: (filters: Record<string, string>) => void;
}

/**
 * The filters of a list route, built from its query parameters in the API's OpenAPI document, so
 * the console offers exactly what the API accepts. Kept in a collapsible block: small screens
 * see the results first.
 */
export function QueryFilters({ service, path, skip, current, onApply }: Props) {
  const [fields, setFields] = useState<FieldSpec[]>();
  const [values, setValues] = useState<FormValues>({});
  const [error, setError] = useState<unknown>();
  const [invalid, setInvalid] = useState<Record<string, string>>({});

  useEffect(() => {
    loadOpenApi(service).then(
      (doc) => {
        const specs = parameterFields(
          doc,
          (doc.paths[path]?.get?.parameters ?? []).filter((p) => p.in === 'query'),
          skip,
        );
        setFields(specs);
        // Dates in the URL are ISO; the datetime-local control wants local "YYYY-MM-DDTHH:mm".
        const preset = Object.fromEntries(
          Object.entries(current).map(([k, v]) => [
            k,
            specs.find((f) => f.name === k)?.control === 'datetime' ? isoToLocal(v) : v,
          ]),
        );
        setValues(initialValues(specs, preset));
      },
      (failure: unknown) => setError(failure),
    );
    // `current` seeds the form once; later changes come from the form itself.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [service, path]);

  if (error) return <ErrorMessage error={error} />;
  if (!fields) return <p className="muted">Loading filters…</p>;

  const apply = (event: FormEvent) => {
    event.preventDefault();
    const { body, errors } = buildBody(fields, values);
    setInvalid(errors);
    if (Object.keys(errors).length) return;
    onApply(
      Object.fromEntries(
        Object.entries(body).map(([k, v]) => [k, Array.isArray(v) ? v.join(',') : String(v)]),
      ),
    );
  };
  const active = Object.keys(current).length;

  return (
    <details className="filters" open={active > 0}>
      <summary>Filters{active ? ` (${active} active)` : ''}</summary>
      <form onSubmit={apply} className="grid-form">
        {fields.map((field) => (
          <SchemaField
            key={field.name}
            field={field}
            values={values}
            error={invalid[field.name]}
            idPrefix="filter"
            onChange={(name, value) => setValues((v) => ({ ...v, [name]: value }))}
          />
        ))}
        <div className="actions">
          <button type="submit">Apply filters</button>
          <button
            type="button"
            className="secondary"
            onClick={() => {
              setValues(initialValues(fields));
              onApply({});
            }}
          >
            Clear
          </button>
        </div>
      </form>
    </details>
  );
}

function isoToLocal(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}
