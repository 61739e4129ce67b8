/**
 * deploy/observability: the Grafana dashboard and the Prometheus alert rules
 * parse, and every metric they query is one the code defines (a renamed
 * metric must not leave a silent, empty panel or an alert that never fires);
 * every metric the code defines is on the dashboard; every alert points to a
 * runbook section that exists.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { collectProcessMetrics, metricsRegistry } from '@genasset/observability';
// The definition files register their metrics on import.
import '../../libs/messaging/src/metrics/messaging.metrics';
import '../../libs/services/webhook/src/metrics/webhook.metrics';
import '../../libs/services/job/src/metrics/job.metrics';
import { REPO_ROOT } from './support/workspace';

const DIR = join(REPO_ROOT, 'deploy/observability');

interface Dashboard {
  title: string;
  uid: string;
  panels: { type: string; title: string; targets?: { expr: string }[] }[];
}
interface RuleFile {
  groups: {
    name: string;
    rules: {
      alert: string;
      expr: string;
      for?: string;
      labels: { severity: string };
      annotations: Record<string, string>;
    }[];
  }[];
}

// Words of PromQL that look like metric names; functions are recognised by the `(` after them.
const PROMQL_WORDS = new Set([
  'by',
  'without',
  'on',
  'ignoring',
  'group_left',
  'group_right',
  'and',
  'or',
  'unless',
  'bool',
  'offset',
]);

/** Metric names an expression selects. */
export function metricNamesIn(expr: string): string[] {
  const bare = expr
    .replace(/"(?:[^"\\]|\\.)*"/g, '""')
    .replace(/\{[^}]*\}/g, '')
    .replace(/\[[^\]]*\]/g, '')
    .replace(/\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, '');
  const names: string[] = [];
  for (const match of bare.matchAll(/[a-zA-Z_:][a-zA-Z0-9_:]*/g)) {
    const rest = bare.slice(match.index + match[0].length).trimStart();
    if (rest.startsWith('(') || PROMQL_WORDS.has(match[0])) continue;
    names.push(match[0]);
  }
  return names;
}

async function knownSeries(): Promise<{ all: Set<string>; ours: string[] }> {
  collectProcessMetrics();
  const metrics = await metricsRegistry.getMetricsAsJSON();
  const all = new Set<string>(['up']);
  const ours: string[] = [];
  for (const { name, type } of metrics) {
    const series = String(type) === 'histogram' ? [`${name}_bucket`, `${name}_sum`, `${name}_count`] : [name];
    for (const s of series) all.add(s);
    if (!/^(process_|nodejs_)/.test(name)) ours.push(name);
  }
  return { all, ours };
}

function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9 -]/g, '')
    .replace(/ /g, '-');
}

describe('deploy/observability', () => {
  const dashboard = JSON.parse(readFileSync(join(DIR, 'grafana-dashboard.json'), 'utf8')) as Dashboard;
  const rules = parse(readFileSync(join(DIR, 'prometheus-rules.yaml'), 'utf8')) as RuleFile;
  const dashboardExprs = dashboard.panels.flatMap((p) => (p.targets ?? []).map((t) => t.expr));
  const ruleExprs = rules.groups.flatMap((g) => g.rules.map((r) => r.expr));

  it('reads PromQL the way the checks below rely on', () => {
    expect(
      metricNamesIn(
        'sum by (job, le) (rate(a_b_bucket{job=~"$job",x="y"}[5m])) / on (job) group_left c_total > bool 0.5',
      ),
    ).toEqual(['a_b_bucket', 'c_total']);
  });

  it('dashboard: every panel queries metrics the code defines', async () => {
    const { all } = await knownSeries();
    expect(dashboard.uid).toBe('genasset-platform');
    expect(dashboardExprs.length).toBeGreaterThan(10);
    const unknown = dashboardExprs.flatMap((e) =>
      metricNamesIn(e)
        .filter((n) => !all.has(n))
        .map((n) => `${n} in ${e}`),
    );
    expect(unknown).toEqual([]);
  });

  it('dashboard: shows every metric the services define', async () => {
    const { ours } = await knownSeries();
    expect(ours).toEqual(
      expect.arrayContaining([
        'http_server_request_duration_seconds',
        'messaging_consumer_lag',
        'webhook_queue_deliveries',
        'job_duration_seconds',
      ]),
    );
    const used = new Set(
      dashboardExprs.flatMap(metricNamesIn).map((n) => n.replace(/_(bucket|sum|count)$/, '')),
    );
    expect(ours.filter((name) => !used.has(name))).toEqual([]);
  });

  it('alert rules: well-formed, on metrics the code defines, each with a runbook section that exists', async () => {
    const { all } = await knownSeries();
    const runbook = readFileSync(join(REPO_ROOT, 'docs/runbook.md'), 'utf8');
    const anchors = new Set([...runbook.matchAll(/^#{2,4} (.+)$/gm)].map((m) => slug(m[1])));
    const names = new Set<string>();
    for (const rule of rules.groups.flatMap((g) => g.rules)) {
      expect(rule.alert).toMatch(/^Genasset[A-Za-z]+$/);
      expect(names.has(rule.alert)).toBe(false);
      names.add(rule.alert);
      expect(['critical', 'warning']).toContain(rule.labels.severity);
      expect(rule.annotations.summary).toBeTruthy();
      expect(metricNamesIn(rule.expr).filter((n) => !all.has(n))).toEqual([]);
      const [file, anchor] = rule.annotations.runbook.split('#');
      expect(file).toBe('docs/runbook.md');
      expect(anchors).toContain(anchor);
    }
    expect(ruleExprs.length).toBeGreaterThan(5);
  });
});
