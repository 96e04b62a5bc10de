/**
 * A small Prometheus registry: counters, gauges and histograms with labels, written in the text exposition format
 * (version 0.0.4). Our own rather than prom-client: a few dozen lines, no dependency for every worktree and package
 * to install, nothing running while nobody scrapes (decisions: "/metrics: our own text writer, loopback or a token").
 */

type Labels = Record<string, string>;

interface Family {
  name: string;
  help: string;
  type: 'counter' | 'gauge' | 'histogram';
  /** Its sample lines, read at each scrape. */
  lines(): string[];
}

function escapeLabel(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/"/g, '\\"');
}

function labelText(labels: Labels): string {
  const entries = Object.entries(labels);
  if (entries.length === 0) return '';
  return `{${entries.map(([k, v]) => `${k}="${escapeLabel(v)}"`).join(',')}}`;
}

function numberText(n: number): string {
  if (Number.isNaN(n)) return 'NaN';
  if (n === Infinity) return '+Inf';
  if (n === -Infinity) return '-Inf';
  return String(n);
}

/** Series keyed by their label values in the declared order. */
function seriesKey(names: readonly string[], labels: Labels): string {
  return JSON.stringify(names.map((n) => labels[n] ?? ''));
}

export interface Counter<L extends string> {
  inc(labels: Record<L, string>, by?: number): void;
  /** The current value of one series (tests, the admin page). */
  get(labels: Record<L, string>): number;
}

export interface Histogram<L extends string> {
  observe(labels: Record<L, string>, value: number): void;
}

/** A gauge read when scraped: the collector answers every series' labels and value. */
export type GaugeCollector = () => Promise<{ labels: Labels; value: number }[]> | { labels: Labels; value: number }[];

export function createRegistry() {
  const families: Family[] = [];
  const collectors: { family: Family; collect: GaugeCollector; values: { labels: Labels; value: number }[] }[] = [];

  function add(family: Family) {
    if (families.some((f) => f.name === family.name)) throw new Error(`metric ${family.name} registered twice`);
    families.push(family);
  }

  return {
    counter<L extends string>(name: string, help: string, labelNames: readonly L[]): Counter<L> {
      const series = new Map<string, { labels: Labels; value: number }>();
      add({
        name,
        help,
        type: 'counter',
        lines: () => [...series.values()].map((s) => `${name}${labelText(s.labels)} ${numberText(s.value)}`),
      });
      return {
        inc(labels, by = 1) {
          const key = seriesKey(labelNames, labels);
          const found = series.get(key);
          if (found) found.value += by;
          else series.set(key, { labels: { ...labels }, value: by });
        },
        get: (labels) => series.get(seriesKey(labelNames, labels))?.value ?? 0,
      };
    },

    histogram<L extends string>(
      name: string,
      help: string,
      labelNames: readonly L[],
      buckets: readonly number[],
    ): Histogram<L> {
      const series = new Map<string, { labels: Labels; counts: number[]; sum: number; count: number }>();
      add({
        name,
        help,
        type: 'histogram',
        lines: () =>
          [...series.values()].flatMap((s) => [
            ...buckets.map(
              (le, i) => `${name}_bucket${labelText({ ...s.labels, le: numberText(le) })} ${s.counts[i] ?? 0}`,
            ),
            `${name}_bucket${labelText({ ...s.labels, le: '+Inf' })} ${s.count}`,
            `${name}_sum${labelText(s.labels)} ${numberText(s.sum)}`,
            `${name}_count${labelText(s.labels)} ${s.count}`,
          ]),
      });
      return {
        observe(labels, value) {
          const key = seriesKey(labelNames, labels);
          let s = series.get(key);
          if (!s) {
            s = { labels: { ...labels }, counts: buckets.map(() => 0), sum: 0, count: 0 };
            series.set(key, s);
          }
          for (let i = 0; i < buckets.length; i += 1)
            if (value <= (buckets[i] as number)) s.counts[i] = (s.counts[i] ?? 0) + 1;
          s.sum += value;
          s.count += 1;
        },
      };
    },

    /** A gauge whose series the collector answers at each scrape. */
    gauge(name: string, help: string, collect: GaugeCollector): void {
      const entry = {
        family: undefined as unknown as Family,
        collect,
        values: [] as { labels: Labels; value: number }[],
      };
      entry.family = {
        name,
        help,
        type: 'gauge',
        lines: () => entry.values.map((s) => `${name}${labelText(s.labels)} ${numberText(s.value)}`),
      };
      add(entry.family);
      collectors.push(entry);
    },

    /** Every family in the text format, the gauges collected first, one after another in the order added. */
    async render(): Promise<string> {
      for (const c of collectors) c.values = await c.collect();
      const out: string[] = [];
      for (const f of families) {
        out.push(`# HELP ${f.name} ${f.help.replace(/\\/g, '\\\\').replace(/\n/g, '\\n')}`);
        out.push(`# TYPE ${f.name} ${f.type}`);
        out.push(...f.lines());
      }
      return `${out.join('\n')}\n`;
    },
  };
}
export type Registry = ReturnType<typeof createRegistry>;
