import type { FieldSpec, FormValues } from './form-fields';

/** A readable label from a property name: `pixelGridSize` → `Pixel grid size`. */
export function labelFor(name: string): string {
  const words = name.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

interface Props {
  field: FieldSpec;
  values: FormValues;
  onChange: (name: string, value: string | boolean) => void;
  error?: string;
  idPrefix: string;
}

/** One labelled control for a field built from the OpenAPI document, with its description as a hint. */
export function SchemaField({ field, values, onChange, error, idPrefix }: Props) {
  const id = `${idPrefix}-${field.name}`;
  const hintId = field.description ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  const describedBy = [hintId, errorId].filter(Boolean).join(' ') || undefined;
  const value = values[field.name];
  const text = typeof value === 'string' ? value : '';
  const label = (
    <>
      {labelFor(field.name)}
      {field.required && <span className="required"> (required)</span>}
    </>
  );
  const common = {
    id,
    name: field.name,
    'aria-describedby': describedBy,
    'aria-invalid': error ? true : undefined,
  };

  let control;
  switch (field.control) {
    case 'checkbox':
      return (
        <div className="field field-checkbox">
          <input
            {...common}
            type="checkbox"
            checked={value === true}
            onChange={(e) => onChange(field.name, e.target.checked)}
          />
          <label htmlFor={id}>{label}</label>
          {hintId && (
            <p id={hintId} className="hint">
              {field.description}
            </p>
          )}
          {error && (
            <p id={errorId} className="field-error">
              {error}
            </p>
          )}
        </div>
      );
    case 'select':
    case 'optional-boolean': {
      const options = field.control === 'select' ? (field.options ?? []) : ['true', 'false'];
      control = (
        <select
          {...common}
          required={field.required}
          value={text}
          onChange={(e) => onChange(field.name, e.target.value)}
        >
          <option value="">{field.required ? 'Choose…' : '(not set)'}</option>
          {options.map((option) => (
            <option key={option} value={option}>
              {option}
            </option>
          ))}
        </select>
      );
      break;
    }
    case 'number':
      control = (
        <input
          {...common}
          type="number"
          inputMode={field.integer ? 'numeric' : 'decimal'}
          step={field.integer ? 1 : 'any'}
          min={field.min}
          max={field.max}
          required={field.required}
          value={text}
          onChange={(e) => onChange(field.name, e.target.value)}
        />
      );
      break;
    case 'textarea':
    case 'json':
      control = (
        <textarea
          {...common}
          rows={field.control === 'json' ? 3 : 2}
          required={field.required}
          placeholder={field.control === 'json' ? 'JSON' : undefined}
          value={text}
          onChange={(e) => onChange(field.name, e.target.value)}
        />
      );
      break;
    case 'datetime':
      control = (
        <input
          {...common}
          type="datetime-local"
          required={field.required}
          value={text}
          onChange={(e) => onChange(field.name, e.target.value)}
        />
      );
      break;
    default:
      control = (
        <input
          {...common}
          type="text"
          required={field.required}
          placeholder={
            field.control === 'list' || field.control === 'number-list' ? 'comma-separated' : undefined
          }
          value={text}
          onChange={(e) => onChange(field.name, e.target.value)}
        />
      );
  }
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {control}
      {hintId && (
        <p id={hintId} className="hint">
          {field.description}
        </p>
      )}
      {error && (
        <p id={errorId} className="field-error">
          {error}
        </p>
      )}
    </div>
  );
}
