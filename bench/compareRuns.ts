// Before/after comparison of two `npm run bench` results files (issue 15 §6): what a change bought, figure by
// figure, each beside the bare baseline measured in its own run (the machine is shared, so a raw figure moves
// with the load; the ratio to a same-run baseline moves less).

/** One number of a run, with its same-run bare-baseline counterpart when the results have one. */
export interface Figure {
  /** Where it is, e.g. `fanout[sessions=1000].chorus.p99` (array rows named by their parameter, not index). */
  readonly path: string;
  readonly value: number;
  readonly baseline?: number;
}

/** A figure of either run or both. */
export interface ComparedFigure {
  readonly path: string;
  readonly before?: number;
  readonly after?: number;
  /** (after - before) / before, in %. */
  readonly changePercent?: number;
  /** value / baseline in each run. */
  readonly beforeRatio?: number;
  readonly afterRatio?: number;
}

/** Fields that name an array row (a bench parameter), in order of preference; they are not figures themselves. */
const ROW_KEYS = ['clients', 'sessions', 'members', 'entry', 'name'];
/** What the bare counterpart of a `chorus` object is called beside it, in order of preference. */
const BASELINE_TWINS = ['baseline', 'bare'];

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

const isRecord = (value: unknown): value is Record<string, Json> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function rowLabel(row: Json, index: number): string {
  if (isRecord(row)) {
    for (const key of ROW_KEYS) {
      const value = row[key];
      if (typeof value === 'number' || typeof value === 'string') return `${key}=${value}`;
    }
  }
  return String(index);
}

/** The object at `segments` below `root` (array rows addressed by their label), if any. */
function lookup(root: Json, segments: readonly string[]): Json | undefined {
  let node: Json | undefined = root;
  for (const segment of segments) {
    if (Array.isArray(node)) node = node.find((row, index) => rowLabel(row, index) === segment);
    else if (isRecord(node)) node = node[segment];
    else return undefined;
  }
  return node;
}

/**
 * The bare-baseline counterpart of the figure at `segments`: the same path with `baseline` (or `bare`) in place of
 * `chorus` (`http.chorus[clients=10].perSecond` → `http.baseline[clients=10].perSecond`), or else a `baselineX` key
 * beside the figure `x` or beside one of its ancestors (`passive.allActive.p99` → `passive.baselineP99`).
 */
function baselineOf(root: Json, segments: readonly string[]): number | undefined {
  const chorusAt = segments.indexOf('chorus');
  for (const name of chorusAt >= 0 ? BASELINE_TWINS : []) {
    const twin = lookup(
      root,
      segments.map((segment, index) => (index === chorusAt ? name : segment)),
    );
    if (typeof twin === 'number') return twin;
  }
  const leaf = segments[segments.length - 1] ?? '';
  const key = `baseline${leaf.charAt(0).toUpperCase()}${leaf.slice(1)}`;
  for (let depth = segments.length - 1; depth >= 0; depth -= 1) {
    const holder = lookup(root, segments.slice(0, depth));
    const value = isRecord(holder) ? holder[key] : undefined;
    if (typeof value === 'number') return value;
  }
  return undefined;
}

const pathText = (segments: readonly string[]): string =>
  segments
    .reduce((text, segment) => (segment.includes('=') ? `${text}[${segment}]` : `${text}.${segment}`), '')
    .slice(1);

/**
 * Every finite number of a results file except row parameters and raw sample arrays (arrays of bare numbers:
 * their summary figures sit beside them), in file order.
 */
export function figuresOf(results: unknown): Figure[] {
  const root = results as Json;
  const figures: Figure[] = [];
  const walk = (node: Json, segments: string[]): void => {
    if (typeof node === 'number') {
      if (!Number.isFinite(node)) return;
      const baseline = baselineOf(root, segments);
      figures.push({ path: pathText(segments), value: node, ...(baseline !== undefined ? { baseline } : {}) });
    } else if (Array.isArray(node)) {
      if (node.every((item) => typeof item === 'number')) return;
      node.forEach((row, index) => {
        walk(row, [...segments, rowLabel(row, index)]);
      });
    } else if (isRecord(node)) {
      for (const [key, value] of Object.entries(node)) {
        // A row's parameter, also when repeated inside the row (`fanout[sessions=100].chorus.sessions`).
        const scalar = typeof value === 'number' || typeof value === 'string';
        if (scalar && ROW_KEYS.includes(key) && segments.includes(`${key}=${value}`)) continue;
        walk(value, [...segments, key]);
      }
    }
  };
  walk(root, []);
  return figures;
}

const ratio = (figure: Figure | undefined): number | undefined =>
  figure?.baseline !== undefined && figure.baseline !== 0 ? figure.value / figure.baseline : undefined;

/** Both runs' figures side by side: the after run's order, then figures only the before run has. */
export function compareRuns(before: unknown, after: unknown): ComparedFigure[] {
  const old = new Map(figuresOf(before).map((figure) => [figure.path, figure]));
  const rows: ComparedFigure[] = [];
  const row = (path: string, was: Figure | undefined, now: Figure | undefined): ComparedFigure => {
    const beforeRatio = ratio(was);
    const afterRatio = ratio(now);
    const changePercent =
      was !== undefined && now !== undefined && was.value !== 0
        ? ((now.value - was.value) / was.value) * 100
        : undefined;
    return {
      path,
      ...(was !== undefined ? { before: was.value } : {}),
      ...(now !== undefined ? { after: now.value } : {}),
      ...(changePercent !== undefined ? { changePercent } : {}),
      ...(beforeRatio !== undefined ? { beforeRatio } : {}),
      ...(afterRatio !== undefined ? { afterRatio } : {}),
    };
  };
  for (const figure of figuresOf(after)) {
    rows.push(row(figure.path, old.get(figure.path), figure));
    old.delete(figure.path);
  }
  for (const [path, figure] of old) rows.push(row(path, figure, undefined));
  return rows;
}

/** A number in a table cell: whole above 100, else three significant digits. */
export function cell(value: number | undefined): string {
  if (value === undefined || !Number.isFinite(value)) return '-';
  if (Math.abs(value) >= 100) return value.toFixed(0);
  return Number(value.toPrecision(3)).toString();
}

/** The comparison as printed by `npm run bench:compare`: one line per figure, columns aligned. */
export function compareTable(rows: readonly ComparedFigure[]): string {
  const header = ['figure', 'before', 'after', 'change', 'before/bare', 'after/bare'];
  const lines = rows.map((row) => [
    row.path,
    cell(row.before),
    cell(row.after),
    row.changePercent === undefined ? '-' : `${row.changePercent >= 0 ? '+' : ''}${row.changePercent.toFixed(1)}%`,
    row.beforeRatio === undefined ? '' : `${cell(row.beforeRatio)}x`,
    row.afterRatio === undefined ? '' : `${cell(row.afterRatio)}x`,
  ]);
  const widths = header.map((title, column) =>
    Math.max(title.length, ...lines.map((line) => line[column]?.length ?? 0)),
  );
  const format = (line: readonly string[]): string =>
    line
      .map((text, column) => (column === 0 ? text.padEnd(widths[column] ?? 0) : text.padStart(widths[column] ?? 0)))
      .join('  ')
      .trimEnd();
  return [format(header), ...lines.map(format)].join('\n');
}
