import { useEffect, useMemo, useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router';
import { call } from '../api/api-client';
import type { Job } from '../api/types';
import { useAction } from '../api/use-api';
import { ErrorMessage } from '../components/error-message';
import { JobView } from '../components/job-view';
import {
  bodyFields,
  buildBody,
  initialValues,
  parameterFields,
  type FieldSpec,
  type FormValues,
} from '../generate/form-fields';
import { jsonBodySchema, loadOpenApi, type OpenApiDocument } from '../generate/openapi';
import { SchemaField } from '../generate/schema-field';

const PREFIX = '/v1/generate/';

interface Estimate {
  creativeUnitsCost: number;
  creativeUnitsDiscount?: number;
}

/**
 * Every POST /v1/generate/* route of the API's OpenAPI document, each with a form built from its
 * request body schema. Sending first asks for a dry run (269 with the cost), then generates on
 * confirmation and follows the job live.
 */
export function GeneratePage() {
  const [params, setParams] = useSearchParams();
  const [doc, setDoc] = useState<OpenApiDocument>();
  const [docError, setDocError] = useState<unknown>();
  useEffect(() => {
    loadOpenApi('generation-service').then(setDoc, setDocError);
  }, []);

  const routes = useMemo(
    () =>
      doc
        ? Object.entries(doc.paths)
            .filter(([path, ops]) => path.startsWith(PREFIX) && ops.post)
            .map(([path, ops]) => ({
              path,
              name: path.slice(PREFIX.length),
              summary: ops.post!.summary ?? '',
              deprecated: ops.post!.deprecated,
            }))
            .sort(
              (a, b) =>
                Number(a.deprecated ?? false) - Number(b.deprecated ?? false) || a.name.localeCompare(b.name),
            )
        : [],
    [doc],
  );
  const routeName = params.get('route') ?? '';
  const route = routes.find((r) => r.name === routeName);

  if (docError) return <ErrorMessage error={docError} />;
  if (!doc) return <p className="muted">Loading the API description…</p>;

  return (
    <section>
      <h1>Generate</h1>
      <div className="field">
        <label htmlFor="generate-route">Generation</label>
        <select
          id="generate-route"
          value={route?.name ?? ''}
          onChange={(e) => {
            const next = new URLSearchParams(params);
            next.set('route', e.target.value);
            setParams(next, { replace: true });
          }}
        >
          <option value="">Choose…</option>
          {routes.map((r) => (
            <option key={r.name} value={r.name}>
              {r.name}
              {r.deprecated ? ' (deprecated)' : ''}
            </option>
          ))}
        </select>
      </div>
      {route && <p className="muted">{route.summary}</p>}
      {route && (
        <GenerateForm
          key={route.path}
          doc={doc}
          path={route.path}
          preset={Object.fromEntries(params.entries())}
        />
      )}
    </section>
  );
}

function GenerateForm({
  doc,
  path,
  preset,
}: {
  doc: OpenApiDocument;
  path: string;
  preset: Record<string, string>;
}) {
  const operation = doc.paths[path].post!;
  const pathFields = useMemo(
    () =>
      parameterFields(
        doc,
        (operation.parameters ?? []).filter((p) => p.in === 'path'),
      ),
    [doc, operation],
  );
  const fields = useMemo<FieldSpec[]>(() => {
    const schema = jsonBodySchema(doc, operation);
    return schema ? bodyFields(doc, schema) : [];
  }, [doc, operation]);
  const [values, setValues] = useState<FormValues>(() => initialValues([...pathFields, ...fields], preset));
  const [invalid, setInvalid] = useState<Record<string, string>>({});
  const [estimate, setEstimate] = useState<Estimate>();
  const [jobId, setJobId] = useState<string>();

  const target = () => {
    let url = path;
    for (const f of pathFields)
      url = url.replace(`{${f.name}}`, encodeURIComponent(String(values[f.name] ?? '')));
    return url;
  };
  const prepare = () => {
    const built = buildBody([...pathFields, ...fields], values);
    setInvalid(built.errors);
    if (Object.keys(built.errors).length) return undefined;
    for (const f of pathFields) delete built.body[f.name];
    return built.body;
  };

  const dryRun = useAction(async () => {
    const body = prepare();
    if (!body) return;
    const { body: cost } = await call<Estimate>(target(), {
      method: 'POST',
      body,
      query: { dryRun: 'true' },
    });
    setEstimate(cost);
  });
  const generate = useAction(async () => {
    const body = prepare();
    if (!body) return;
    const { body: answer } = await call<{ job: Job }>(target(), { method: 'POST', body });
    setJobId(answer.job.jobId);
  });

  const onChange = (name: string, value: string | boolean) => {
    setValues((v) => ({ ...v, [name]: value }));
    // A changed request needs a new estimate before it is sent.
    setEstimate(undefined);
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setJobId(undefined);
    void dryRun.run();
  };

  return (
    <>
      <form onSubmit={submit} className="stack" noValidate>
        {[...pathFields, ...fields].map((field) => (
          <SchemaField
            key={field.name}
            field={field}
            values={values}
            onChange={onChange}
            error={invalid[field.name]}
            idPrefix="generate"
          />
        ))}
        <div className="actions">
          <button type="submit" disabled={dryRun.pending}>
            {dryRun.pending ? 'Estimating…' : 'Estimate cost'}
          </button>
        </div>
      </form>
      <ErrorMessage error={dryRun.error} />
      {estimate && !jobId && (
        <div className="panel" role="status">
          <p>
            This request costs <strong data-testid="dry-run-cost">{estimate.creativeUnitsCost}</strong>{' '}
            creative units
            {estimate.creativeUnitsDiscount ? ` (discount: ${estimate.creativeUnitsDiscount})` : ''}. Nothing
            has been sent yet.
          </p>
          <button type="button" onClick={() => void generate.run()} disabled={generate.pending}>
            {generate.pending ? 'Sending…' : `Generate for ${estimate.creativeUnitsCost} units`}
          </button>
        </div>
      )}
      <ErrorMessage error={generate.error} />
      {jobId && (
        <>
          <h2>Job</h2>
          <JobView jobId={jobId} />
        </>
      )}
    </>
  );
}
